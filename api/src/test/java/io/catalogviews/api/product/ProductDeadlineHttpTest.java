package io.catalogviews.api.product;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.KeyedRouter;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.api.routing.RequestTarget;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.api.testing.OwnedHere;
import io.catalogviews.views.query.ProductCommits;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.Instance;
import io.javalin.Javalin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The callee's side of a forwarded {@code GET /v1/products/{id}?minVersion=…&waitMs=…}, on a real socket: the wait
 * ends at the signed deadline of the instance that forwarded the request (504 within 50 ms of it), while an unsigned
 * deadline is ignored. The product is at version 1 and never changes, so every wait for version 5 runs to its end.
 */
class ProductDeadlineHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final PeerHeaders PEERS = new PeerHeaders("product-deadline-test-secret", null);
    private static final Instance CALLER = new Instance("127.0.0.1", 1);

    private Javalin app;
    private VersionWaiters waiters;
    private Forwarder forwarder;
    private String base;

    @BeforeEach
    void start() throws Exception {
        // The instance owns every product, so it never forwards: its name in the metadata is all that matters.
        Instance self = new Instance("127.0.0.1", 2);
        ProductQueries queries = new VersionOne();
        waiters = new VersionWaiters(queries, ProductCommits.NONE, id -> 0, 100);
        forwarder = new Forwarder(self, Duration.ofSeconds(1), 1, PEERS);
        ProductRoutes routes = new ProductRoutes(new OwnedHere(self), queries, waiters,
                new KeyedRouter(self, forwarder, new StaleReads(self, 1), Duration.ofSeconds(5)));
        app = Javalin.create(cfg -> {
            cfg.jetty.port = 0;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.before(PEERS::verify);
            cfg.routes.get("/v1/products/{id}", routes::get);
            cfg.routes.exception(ApiException.class, (e, ctx) -> Responses.error(ctx, e));
        });
        app.start();
        base = "http://127.0.0.1:" + app.port();
        // Open the connection first, as a peer's pool has: the callee counts the budget from the request's arrival.
        assertThat(send(HttpRequest.newBuilder(URI.create(base + "/v1/products/p-1"))).statusCode()).isEqualTo(200);
    }

    @AfterEach
    void stop() {
        app.stop();
        waiters.close();
        forwarder.close();
    }

    @Test
    void shouldStopWaitingAndAnswerOwnerTimeoutWithinFiftyMillisecondsOfTheCallersDeadline() throws Exception {
        Duration budget = Duration.ofMillis(300);
        PeerRequest request = PeerRequest.get(RequestTarget.path("/v1/products").segment("p-1")
                .param("minVersion", 5).param("waitMs", 5000));

        long start = System.nanoTime();
        HttpResponse<String> response = signed(request, budget);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("owner_timeout");
        assertThat(took).as("the wait ended by the caller's deadline plus 50 ms, not waitMs")
                .isLessThan(budget.plusMillis(50)).isGreaterThanOrEqualTo(budget.minusMillis(5));
        // The answer may leave before the waiter's slot is given back: both happen when the wait ends.
        org.awaitility.Awaitility.await().alias("the ended wait gives its slot back")
                .atMost(Duration.ofSeconds(2)).until(() -> waiters.waiting() == 0);
    }

    @Test
    void shouldWaitTheWholeWaitMsWhenTheDeadlineIsNotSigned() throws Exception {
        HttpRequest.Builder unsigned = HttpRequest.newBuilder(URI.create(base
                        + "/v1/products/p-1?minVersion=5&waitMs=400"))
                .header("X-Catalog-Forwarded-By", "127.0.0.1:1")
                .header("X-Catalog-Deadline", Long.toString(System.currentTimeMillis()));

        long start = System.nanoTime();
        HttpResponse<String> response = send(unsigned);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        assertThat(JSON.readTree(response.body()).at("/error/currentVersion").asLong()).isEqualTo(1);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(395));
    }

    @Test
    void shouldAnswerVersionNotReachedWhenWaitMsEndsBeforeTheCallersDeadline() throws Exception {
        PeerRequest request = PeerRequest.get(RequestTarget.path("/v1/products").segment("p-1")
                .param("minVersion", 5).param("waitMs", 100));

        HttpResponse<String> response = signed(request, Duration.ofSeconds(3));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("version_not_reached");
    }

    private HttpResponse<String> signed(PeerRequest request, Duration budget) throws Exception {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(base + request.pathAndQuery()));
        PEERS.sign(http, request, CALLER, budget);
        return send(http);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Every product at version 1, forever. */
    private static final class VersionOne implements ProductQueries {
        private static final ProductLookup FOUND = new ProductLookup.Found(1,
                "{\"version\":1}".getBytes(StandardCharsets.UTF_8));

        @Override
        public ProductLookup get(String id) {
            return FOUND;
        }

        @Override
        public List<ProductLookup> getAll(List<String> ids) {
            return ids.stream().map(this::get).toList();
        }

        @Override
        public ReplicaRead getFromAnyReplica(String id) {
            return new ReplicaRead(FOUND, 0);
        }

        @Override
        public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
            return new ReplicaBatch(getAll(ids), 0);
        }
    }
}
