package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /openapi.json} is an OpenAPI 3 document that describes exactly the public routes the running server
 * registered (every {@code /internal/*} route excluded), each operation with its responses and path parameters.
 */
@Tag("integration")
@Timeout(120)
class OpenApiIT {

    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "options", "head",
            "patch", "trace");
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}]+)}");

    private static InProcessService service;
    private static JsonNode document;

    @BeforeAll
    static void start() {
        service = InProcessService.start("openapi-it", 2);
        HttpTestClient.Answer answer = service.http().get("/openapi.json");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        document = answer.json();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static Set<String> registeredPublicRoutes() {
        Set<String> routes = new TreeSet<>();
        for (String route : service.service().httpRoutes()) { // "GET /v1/products/{id}"
            if (!route.substring(route.indexOf(' ') + 1).startsWith("/internal/")) {
                routes.add(route);
            }
        }
        return routes;
    }

    private static Set<String> describedRoutes() {
        Set<String> routes = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(
                method -> {
                    if (HTTP_METHODS.contains(method)) {
                        routes.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                    }
                }));
        return routes;
    }

    @Test
    void shouldDeclareOpenApi3WithInfoAndPathsWhenServed() {
        assertThat(document.path("openapi").asText()).startsWith("3.");
        assertThat(document.path("info").path("title").asText()).isNotBlank();
        assertThat(document.path("info").path("version").asText()).isNotBlank();
        assertThat(document.path("paths").isObject()).isTrue();
    }

    @Test
    void shouldDescribeEveryPublicRouteTheServerRegisters() {
        assertThat(registeredPublicRoutes()).isNotEmpty().contains("GET /v1/products/{id}", "GET /metrics",
                "GET /openapi.json");

        assertThat(describedRoutes()).containsAll(registeredPublicRoutes());
    }

    @Test
    void shouldDescribeOnlyRoutesTheServerRegisters() {
        assertThat(registeredPublicRoutes()).containsAll(describedRoutes());
    }

    @Test
    void shouldGiveEveryOperationResponsesAndDeclareEveryPathParameter() {
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (!HTTP_METHODS.contains(op.getKey())) {
                return;
            }
            String where = op.getKey() + " " + path.getKey();
            assertThat(op.getValue().path("responses").size()).as("responses of %s", where).isPositive();
            List<String> declared = new ArrayList<>();
            for (JsonNode parameter : op.getValue().path("parameters")) {
                JsonNode resolved = resolve(parameter);
                if ("path".equals(resolved.path("in").asText())) {
                    declared.add(resolved.path("name").asText());
                    assertThat(resolved.path("required").asBoolean()).as("%s path parameter", where).isTrue();
                }
            }
            Matcher m = PATH_PARAM.matcher(path.getKey());
            List<String> inTemplate = new ArrayList<>();
            while (m.find()) {
                inTemplate.add(m.group(1));
            }
            assertThat(declared).as("path parameters of %s", where).containsExactlyInAnyOrderElementsOf(inTemplate);
        }));
    }

    @Test
    void shouldResolveEveryReferenceWithinTheDocument() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);

        assertThat(refs).isNotEmpty().allSatisfy(ref -> assertThat(resolve(ref).isMissingNode())
                .as("target of %s", ref).isFalse());
    }

    @Test
    void shouldDescribeTheContractErrorCodesWhenListingTheErrorSchema() {
        JsonNode codes = document.at("/components/schemas/Error/properties/error/properties/code/enum");
        List<String> values = new ArrayList<>();
        codes.forEach(c -> values.add(c.asText()));

        assertThat(values).contains("bad_request", "not_found", "method_not_allowed", "version_not_reached",
                "too_large", "unsupported_media_type", "unavailable", "owner_timeout", "unauthorized",
                "query_too_broad");
        assertThat(document.at("/paths/~1v1~1facets/get/responses/422").isMissingNode()).isFalse();
        assertThat(document.at("/paths/~1v1~1products/get/parameters")).hasSize(9);
        assertThat(document.at("/paths/~1v1~1cluster/get/responses/401").isMissingNode()).isFalse();
        assertThat(document.at("/paths/~1metrics/get/responses/401").isMissingNode()).isFalse();
    }

    private static JsonNode resolve(JsonNode node) {
        return node.has("$ref") ? resolve(node.get("$ref").asText()) : node;
    }

    private static JsonNode resolve(String ref) {
        assertThat(ref).startsWith("#/");
        return document.at(ref.substring(1));
    }

    private static void collectRefs(JsonNode node, List<String> refs) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().equals("$ref")) {
                    refs.add(field.getValue().asText());
                } else {
                    collectRefs(field.getValue(), refs);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectRefs(child, refs));
        }
    }
}
