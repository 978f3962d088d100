package io.catalogviews.api.product;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Ids;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** The body of {@code POST /v1/products/batch}: {@code {"ids":[...]}}, 1..1000 valid ids. */
public record BatchRequest(List<String> distinctIds) {

    public static final int MAX_IDS = 1000;
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Parses and validates a batch body.
     *
     * @throws ApiException 400 naming {@code ids} (or {@code body}) for a malformed body, 413 for more than
     *                      {@value #MAX_IDS} ids
     */
    public static BatchRequest parse(byte[] body) {
        List<String> ids = null;
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw ApiException.badRequest("body", "body must be a JSON object {\"ids\":[...]}");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (!"ids".equals(field)) {
                    throw ApiException.badRequest(field, "unknown field '" + field + "' in body; only 'ids' is allowed");
                }
                if (ids != null) {
                    throw ApiException.badRequest("ids", "field 'ids' must not be repeated");
                }
                ids = readIds(p);
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw ApiException.badRequest("body", "body must be one JSON object {\"ids\":[...]}");
            }
        } catch (IOException e) {
            throw ApiException.badRequest("body", "body is not valid JSON");
        }
        if (ids == null) {
            throw ApiException.badRequest("ids", "body must hold 'ids', an array of 1.." + MAX_IDS + " product ids");
        }
        if (ids.isEmpty()) {
            throw ApiException.badRequest("ids", "'ids' must hold 1.." + MAX_IDS + " product ids, was empty");
        }
        return new BatchRequest(List.copyOf(new LinkedHashSet<>(ids)));
    }

    private static List<String> readIds(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw ApiException.badRequest("ids", "'ids' must be an array of product ids");
        }
        List<String> ids = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.VALUE_STRING) {
                throw ApiException.badRequest("ids", "'ids' must hold only strings");
            }
            if (ids.size() == MAX_IDS) {
                throw ApiException.tooLarge("ids", "'ids' holds more than " + MAX_IDS + " ids");
            }
            ids.add(Ids.require("ids", p.getText()));
        }
        return ids;
    }
}
