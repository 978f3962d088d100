package io.catalogviews.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.http.Responses;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}: the hand-written OpenAPI 3 description of the public HTTP API (resource
 * {@value #RESOURCE}), served as it is. Its route list is kept true by a test that compares it with the routes
 * the server registers.
 */
public final class OpenApiDocument {

    public static final String PATH = "/openapi.json";
    public static final String RESOURCE = "/io/catalogviews/api/openapi/openapi.json";

    private final byte[] json;

    private OpenApiDocument(byte[] json) {
        this.json = json;
    }

    /** Loads and parses the document once; a broken resource fails the start, not a request. */
    public static OpenApiDocument load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCE + " is missing from the jar");
            }
            byte[] bytes = in.readAllBytes();
            JsonNode root = new ObjectMapper().readTree(bytes);
            if (!root.path("openapi").asText().startsWith("3.")) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCE + " does not declare openapi 3.x");
            }
            return new OpenApiDocument(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the OpenAPI document " + RESOURCE, e);
        }
    }

    public byte[] json() {
        return json.clone();
    }

    public void serve(Context ctx) {
        ctx.header("Cache-Control", "public, max-age=300");
        Responses.json(ctx, 200, json);
    }
}
