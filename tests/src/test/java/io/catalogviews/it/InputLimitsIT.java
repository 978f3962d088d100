package io.catalogviews.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inputs are bounded at the edge: oversize or malformed ids, categories, brands, cursors, URIs, headers and
 * bodies get 400/413/414/431 in the contract's JSON shape, with no stack trace and no internal host name.
 */
@Tag("integration")
@Timeout(120)
class InputLimitsIT {

    private static InProcessService service;
    private static HttpTestClient http;

    @BeforeAll
    static void start() {
        service = InProcessService.start("input-limits-it", 2);
        http = service.http();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static void assertCleanError(HttpTestClient.Answer answer, int status) {
        assertThat(answer.status()).as("status of %s", answer.body()).isEqualTo(status);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.json().at("/error/code").asText()).isNotBlank();
        assertThat(answer.body()).doesNotContain("Exception", "\tat ", "at io.", "at org.", "java.",
                "localhost:" + service.service().httpPort(), service.service().self().hostPort());
        String host = hostName();
        if (!host.equals("localhost")) {
            assertThat(answer.body()).doesNotContain(host);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "category too long, category",
            "category with upper case, category",
            "brand too long, brand",
            "too many brands, brand",
            "cursor too long, cursor",
            "cursor malformed, cursor",
            "limit too large, limit",
    })
    void shouldAnswerBadRequestNamingTheParameterWhenAListingInputIsOutOfBounds(String what, String parameter) {
        String query = switch (what) {
            case "category too long" -> "category=" + "c".repeat(65);
            case "category with upper case" -> "category=Phones";
            case "brand too long" -> "brand=" + "b".repeat(129);
            case "too many brands" -> IntStream.range(0, 21).mapToObj(i -> "brand=b" + i)
                    .collect(Collectors.joining("&"));
            case "cursor too long" -> "cursor=" + "x".repeat(513);
            case "cursor malformed" -> "cursor=" + encode("not-a-cursor!");
            case "limit too large" -> "limit=201";
            default -> throw new IllegalArgumentException(what);
        };

        HttpTestClient.Answer answer = http.get("/v1/products?" + query);

        assertCleanError(answer, 400);
        assertThat(answer.json().at("/error/parameter").asText()).isEqualTo(parameter);
    }

    @Test
    void shouldAnswerBadRequestWhenAFacetsBrandLimitIsOutOfRange() {
        HttpTestClient.Answer answer = http.get("/v1/facets?brandLimit=1001");

        assertCleanError(answer, 400);
        assertThat(answer.json().at("/error/parameter").asText()).isEqualTo("brandLimit");
    }

    @Test
    void shouldAnswerBadRequestWhenAProductIdHasCharactersOutsideTheGrammar() {
        assertCleanError(http.get("/v1/products/" + encode("p<script>")), 400);
        assertCleanError(http.get("/v1/products/" + "x".repeat(129)), 400);
    }

    @Test
    void shouldAnswerTooLargeWhenABatchBodyIsOverTheLimit() {
        String ids = IntStream.range(0, 1001).mapToObj(i -> "\"p-" + i + "\"").collect(Collectors.joining(","));

        assertCleanError(http.postJson("/v1/products/batch", "{\"ids\":[" + ids + "]}"), 413);
        assertCleanError(http.postJson("/v1/products/batch", "{\"ids\":[\"" + "a".repeat(1_100_000) + "\"]}"), 413);
    }

    @Test
    void shouldAnswerUriTooLongAndHeadersTooLargeWhenTheRequestHeadIsHuge() {
        assertCleanError(http.get("/v1/products?category=" + "c".repeat(20_000)), 414);
        assertCleanError(http.get("/v1/categories", "X-Padding", "p".repeat(20_000)), 431);
    }

    @Test
    void shouldAnswerBadRequestWithoutDetailsWhenTheBatchBodyIsBrokenJson() {
        assertCleanError(http.postJson("/v1/products/batch", "{\"ids\":[\"p-1\",]" + "\u0000"), 400);
    }
}
