package io.catalogviews.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every bad input of the contract's error table gets its status and JSON error, and the service stays up. */
@Tag("integration")
@Timeout(120)
class HttpErrorsIT {

    private static InProcessService service;
    private static HttpTestClient http;

    @BeforeAll
    static void start() {
        service = InProcessService.start("errors-it", 2);
        http = service.http();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static void assertError(HttpTestClient.Answer answer, int status, String code) {
        assertThat(answer.status()).as("status of %s", answer.body()).isEqualTo(status);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.json().at("/error/code").asText()).isEqualTo(code);
        assertThat(answer.json().at("/error/message").asText()).isNotBlank();
        assertThat(answer.body()).doesNotContain("Exception", "\tat ", "at io.", "at org.");
    }

    @ParameterizedTest(name = "{0} -> parameter {1}")
    @CsvSource({
            "/v1/products/has%20space, id",
            "/v1/products/p-1?unknown=1, unknown",
            "/v1/products/p-1?minVersion=0, minVersion",
            "/v1/products/p-1?minVersion=abc, minVersion",
            "/v1/products/p-1?minVersion=1&waitMs=10001, waitMs",
            "/v1/products/p-1?minVersion=1&waitMs=-1, waitMs",
            "/v1/products/p-1?minVersion=1&minVersion=2, minVersion",
    })
    void shouldAnswerBadRequestNamingTheParameterWhenAParameterIsBad(String path, String parameter) {
        HttpTestClient.Answer answer = http.get(path);

        assertError(answer, 400, "bad_request");
        assertThat(answer.json().at("/error/parameter").asText()).isEqualTo(parameter);
    }

    @Test
    void shouldAnswerBadRequestWhenIdIsLongerThan128Characters() {
        HttpTestClient.Answer answer = http.get("/v1/products/" + "x".repeat(129));

        assertError(answer, 400, "bad_request");
        assertThat(answer.json().at("/error/parameter").asText()).isEqualTo("id");
    }

    @Test
    void shouldAnswerNotFoundWhenProductIsAbsent() {
        assertError(http.get("/v1/products/absent-1"), 404, "not_found");
    }

    @Test
    void shouldAnswerNotFoundWhenRouteIsUnknown() {
        assertError(http.get("/v1/nothing-here"), 404, "not_found");
    }

    @Test
    void shouldAnswerMethodNotAllowedWhenMethodIsWrong() {
        assertError(http.method("DELETE", "/v1/products/p-1"), 405, "method_not_allowed");
        assertError(http.method("PUT", "/v1/products/batch"), 405, "method_not_allowed");
    }

    @ParameterizedTest(name = "body {0}")
    @CsvSource(delimiter = '|', value = {
            "not json | body",
            "[] | body",
            "{} | ids",
            "{\"ids\":[]} | ids",
            "{\"ids\":\"p-1\"} | ids",
            "{\"ids\":[1,2]} | ids",
            "{\"ids\":[\"bad id\"]} | ids",
            "{\"ids\":[\"p-1\"],\"extra\":1} | extra",
    })
    void shouldAnswerBadRequestWhenBatchBodyIsMalformed(String body, String parameter) {
        HttpTestClient.Answer answer = http.postJson("/v1/products/batch", body);

        assertError(answer, 400, "bad_request");
        assertThat(answer.json().at("/error/parameter").asText()).isEqualTo(parameter);
    }

    @Test
    void shouldAnswerTooLargeWhenBatchHoldsMoreThan1000Ids() {
        String ids = IntStream.range(0, 1001).mapToObj(i -> "\"p-" + i + "\"").collect(Collectors.joining(","));

        assertError(http.postJson("/v1/products/batch", "{\"ids\":[" + ids + "]}"), 413, "too_large");
    }

    @Test
    void shouldAcceptExactly1000IdsWhenBatchIsAtTheLimit() {
        String ids = IntStream.range(0, 1000).mapToObj(i -> "\"p-" + i + "\"").collect(Collectors.joining(","));

        HttpTestClient.Answer answer = http.postJson("/v1/products/batch", "{\"ids\":[" + ids + "]}");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("missing")).hasSize(1000);
    }

    @Test
    void shouldAnswerTooLargeWhenBodyExceedsTheLimit() {
        String huge = "{\"ids\":[\"" + "a".repeat(2 * 1024 * 1024) + "\"]}";

        assertError(http.postJson("/v1/products/batch", huge), 413, "too_large");
    }

    @Test
    void shouldAnswerUnsupportedMediaTypeWhenBatchIsNotJson() {
        assertError(http.post("/v1/products/batch", "text/plain", "{\"ids\":[\"p-1\"]}"), 415,
                "unsupported_media_type");
        assertError(http.post("/v1/products/batch", null, "{\"ids\":[\"p-1\"]}"), 415, "unsupported_media_type");
    }

    @Test
    void shouldAnswerUriTooLongWhenTheUriIsHuge() {
        HttpTestClient.Answer answer = http.get("/v1/products/p-1?minVersion=" + "1".repeat(20_000));

        assertThat(answer.status()).isEqualTo(414);
        assertThat(answer.json().at("/error/code").asText()).isNotBlank();
    }

    @Test
    void shouldAnswerHeadersTooLargeWhenAHeaderIsHuge() {
        HttpTestClient.Answer answer = http.get("/v1/products/p-1", "X-Big", "b".repeat(20_000));

        assertThat(answer.status()).isEqualTo(431);
        assertThat(answer.json().at("/error/code").asText()).isNotBlank();
    }

    @Test
    void shouldStayLiveAndReadyWhenRequestsWereBad() {
        http.get("/v1/products/has%20space");
        http.postJson("/v1/products/batch", "not json");

        assertThat(http.get("/health/live").status()).isEqualTo(200);
        assertThat(http.get("/health/ready").status()).isEqualTo(200);
    }
}
