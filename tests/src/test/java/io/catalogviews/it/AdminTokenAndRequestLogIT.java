package io.catalogviews.it;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.catalogviews.api.logging.RequestLog;
import io.catalogviews.api.security.AdminToken;
import io.catalogviews.service.config.OperationsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An instance started with {@code --admin-token} and {@code --request-log}. */
@Tag("integration")
@Timeout(120)
class AdminTokenAndRequestLogIT {

    private static final String TOKEN = "s3cret-admin-token-for-tests";
    private static InProcessService service;
    private static HttpTestClient http;

    @BeforeAll
    static void start() {
        service = InProcessService.start("admin-token-it", 2, OperationsConfig.defaults()
                .withAdminToken(AdminToken.of(TOKEN)).withRequestLog(true));
        http = service.http();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static void assertUnauthorized(HttpTestClient.Answer answer) {
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(answer.json().at("/error/code").asText()).isEqualTo("unauthorized");
        assertThat(answer.body()).doesNotContain(TOKEN, "Exception", "\tat ");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/metrics", "/v1/cluster"})
    void shouldAnswerUnauthorizedWhenTheTokenIsMissing(String path) {
        assertUnauthorized(http.get(path));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/metrics", "/v1/cluster"})
    void shouldAnswerUnauthorizedWhenTheTokenIsWrong(String path) {
        assertUnauthorized(http.get(path, "Authorization", "Bearer " + TOKEN + "x"));
        assertUnauthorized(http.get(path, "Authorization", "Basic " + TOKEN));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/metrics", "/v1/cluster"})
    void shouldAnswerWhenTheTokenIsRight(String path) {
        assertThat(http.get(path, "Authorization", "Bearer " + TOKEN).status()).isEqualTo(200);
    }

    @Test
    void shouldCountRefusedRequestsUnderTheirRouteWhenTheTokenIsMissing() {
        http.get("/metrics");

        PrometheusText metrics = PrometheusText.parse(http.get("/metrics", "Authorization", "Bearer " + TOKEN).body());

        assertThat(metrics.value("http_server_requests_seconds_count",
                Map.of("method", "GET", "route", "/metrics", "status", "401"))).isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/health/live", "/health/ready", "/openapi.json", "/v1/categories"})
    void shouldLeaveOtherRoutesOpenWhenATokenIsConfigured(String path) {
        assertThat(http.get(path).status()).isEqualTo(200);
    }

    @Test
    void shouldLogOneLinePerRequestWhenTheRequestLogIsOn() {
        Logger requests = (Logger) LoggerFactory.getLogger(RequestLog.LOGGER);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        requests.addAppender(lines);
        try {
            http.get("/v1/products/rl-1?minVersion=1");
            http.get("/metrics", "Authorization", "Bearer " + TOKEN);
            await().alias("two request lines").atMost(Duration.ofSeconds(5)).until(() -> lines.list.size() >= 2);
        } finally {
            requests.detachAppender(lines);
        }

        assertThat(lines.list).hasSize(2).extracting(ILoggingEvent::getFormattedMessage)
                .allSatisfy(line -> assertThat(line).doesNotContain("\n", TOKEN))
                .anySatisfy(line -> assertThat(line).contains("\"GET /v1/products/rl-1?minVersion=1\" 409"))
                .anySatisfy(line -> assertThat(line).contains("\"GET /metrics\" 200"));
    }
}
