package io.catalogviews.it;

import io.catalogviews.service.CatalogService;
import io.catalogviews.service.ServiceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Forwarding is no open proxy: two real instances share the partitions, and requests to instance A whose Host,
 * request target, {@code X-Forwarded-*}, {@code Forwarded} or (unsigned) {@code X-Catalog-Forwarded-By} headers point
 * at a trap server never make A call the trap; A forwards only to B, the owner named by Kafka Streams metadata.
 */
@Tag("integration")
@Timeout(180)
class ForwardingTargetIT {

    private static final int PRODUCTS = 16;
    private static CatalogService a;
    private static CatalogService b;
    private static HttpTestClient httpA;
    private static ServerSocket trap;
    private static final AtomicInteger TRAP_CONNECTIONS = new AtomicInteger();
    private static String ownedByB;

    @BeforeAll
    static void start() throws IOException {
        trap = new ServerSocket(0);
        Thread accept = new Thread(() -> {
            while (!trap.isClosed()) {
                try (Socket ignored = trap.accept()) {
                    TRAP_CONNECTIONS.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        }, "trap-accept");
        accept.setDaemon(true);
        accept.start();

        String appId = "forward-it-" + UUID.randomUUID().toString().substring(0, 8);
        a = CatalogService.start(config(appId, "a"));
        b = CatalogService.start(config(appId, "b"));
        httpA = new HttpTestClient("http://localhost:" + a.httpPort());
        try (TestProducer producer = new TestProducer(a.config().inputTopic())) {
            for (int i = 0; i < PRODUCTS; i++) {
                producer.sendSingleObject(TestEvents.upsert(TestEvents.product("f-" + i, "acme", List.of("phones"),
                        100 + i, 1, null), 1));
            }
        }
        String bHostPort = "localhost:" + b.httpPort();
        await().alias("both instances serve and B owns some products").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> {
                    ownedByB = null;
                    for (int i = 0; i < PRODUCTS; i++) {
                        HttpTestClient.Answer answer = httpA.get("/v1/products/f-" + i);
                        if (answer.status() != 200) {
                            return false;
                        }
                        if (bHostPort.equals(answer.header("X-Served-By"))) {
                            ownedByB = "f-" + i;
                        }
                    }
                    return ownedByB != null;
                });
    }

    private static ServiceConfig config(String appId, String name) {
        int port = ServiceProcess.freePort();
        ServiceConfig defaults = ServiceConfig.defaults(Path.of("target", "it-state", appId + "-" + name));
        String input = appId + ".product-events";
        return new ServiceConfig(TestKafka.bootstrapServers(), 0, port, "http://localhost:" + port,
                defaults.stateDir(), 4, 0, appId, defaults.deletedRetention(), input, input + ".dlq",
                defaults.inputRetention(), 1, 32L * 1024 * 1024, Map.of());
    }

    @AfterAll
    static void stop() throws IOException {
        b.close();
        a.close();
        trap.close();
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, without the final blank line) to A. */
    private static String raw(String head) {
        try (Socket socket = new Socket("localhost", a.httpPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String trapHostPort() {
        return "localhost:" + trap.getLocalPort();
    }

    @Test
    void shouldForwardToTheOwnerNotToTheHostWhenHostAndProxyHeadersPointElsewhere() {
        String answer = raw("GET /v1/products/" + ownedByB + " HTTP/1.1\r\nHost: " + trapHostPort()
                + "\r\nX-Forwarded-Host: " + trapHostPort() + "\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Port: "
                + trap.getLocalPort() + "\r\nForwarded: host=" + trapHostPort() + ";proto=http");

        assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("X-Served-By: localhost:" + b.httpPort());
        assertThat(TRAP_CONNECTIONS.get()).isZero();
    }

    @Test
    void shouldForwardToTheOwnerWhenTheRequestTargetIsAnAbsoluteUrlOfAnotherHost() {
        String answer = raw("GET http://" + trapHostPort() + "/v1/products/" + ownedByB + " HTTP/1.1\r\nHost: "
                + trapHostPort());

        assertThat(answer).doesNotContain("\tat ");
        assertThat(TRAP_CONNECTIONS.get()).isZero();
    }

    @Test
    void shouldForwardToTheOwnerOnlyWhenAnUnsignedRequestClaimsToBeForwardedAlready() {
        HttpTestClient.Answer answer = httpA.get("/v1/products/" + ownedByB, "X-Catalog-Forwarded-By",
                trapHostPort());

        assertThat(answer.status()).as("the unsigned claim is ignored: a client's request").isEqualTo(200);
        assertThat(answer.header("X-Served-By")).isEqualTo("localhost:" + b.httpPort());
        assertThat(TRAP_CONNECTIONS.get()).isZero();
    }

    @Test
    void shouldCountForwardedCallsByOwnerAndOutcomeWhenAReadWasForwarded() {
        assertThat(httpA.get("/v1/products/" + ownedByB).status()).isEqualTo(200);

        PrometheusText metrics = PrometheusText.parse(httpA.get("/metrics").body());

        assertThat(metrics.sum("catalog_forwarded_requests_seconds_count",
                Map.of("target", "localhost:" + b.httpPort(), "outcome", "success"))).isGreaterThanOrEqualTo(1);
        assertThat(metrics.labelValues("catalog_forwarded_requests_seconds_count", "target"))
                .containsOnly("localhost:" + b.httpPort());
    }
}
