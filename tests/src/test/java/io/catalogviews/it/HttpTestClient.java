package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.ModelProduct;
import io.catalogviews.model.ProductJsonCheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A small HTTP client for tests: real requests over real sockets. */
public final class HttpTestClient {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public HttpTestClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public record Answer(int status, Map<String, java.util.List<String>> headers, String body) {
        public JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    public Answer get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).GET());
    }

    public Answer get(String pathAndQuery, String header, String value) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).header(header, value).GET());
    }

    public Answer post(String path, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b);
    }

    public Answer method(String method, String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    public Answer postJson(String path, String body) {
        return post(path, "application/json", body);
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = client.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("request to " + baseUrl + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Every product {@code model} remembers that this service answers otherwise, with what differs: a held product
     * must come back as the model renders it, a deleted or never-held one as 404.
     */
    public List<String> productDifferences(CatalogModel model) {
        List<String> differences = new ArrayList<>();
        for (String id : model.rememberedIds()) {
            Answer answer = get("/v1/products/" + id);
            ModelProduct expected = model.product(id).orElse(null);
            if (expected == null) {
                if (answer.status() != 404) {
                    differences.add(id + ": expected 404, was " + answer.status());
                }
            } else {
                String diff = answer.status() == 200 ? ProductJsonCheck.difference(expected, answer.body())
                        : id + ": status " + answer.status();
                if (diff != null) {
                    differences.add(diff);
                }
            }
        }
        return differences;
    }
}
