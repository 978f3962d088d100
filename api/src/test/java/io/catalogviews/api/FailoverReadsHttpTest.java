package io.catalogviews.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.listing.ListingRoutes;
import io.catalogviews.api.product.BatchRoutes;
import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import io.javalin.Javalin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover of batch reads, on real sockets over in-memory fake views (listings are never read from a standby: every
 * listing reads every product partition's active copy, as {@code ListingRoutesHttpTest} checks). Three instances:
 * {@code a} is asked, {@code b} owns the data and fails (its stores refuse, or its HTTP server is stopped), {@code a}
 * or {@code c} holds the standby. Every instance's stores hold the same data; the JSON names the instance that read
 * it, so the tests see who answered.
 */
class FailoverReadsHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final PeerHeaders PEERS = new PeerHeaders("test-cluster-secret", null);

    private final Map<String, Ownership> ownership = new ConcurrentHashMap<>();
    private final Map<Instance, Fake> fakes = new HashMap<>();
    private final Map<Instance, Javalin> apps = new HashMap<>();
    private final List<Forwarder> forwarders = new ArrayList<>();
    private Instance a;
    private Instance b;
    private Instance c;

    @BeforeEach
    void start() throws IOException {
        // The instances must know each other's ports before they start: hold three distinct free ports open,
        // release each just before its server binds, and start over if another process took one meanwhile.
        for (int attempt = 1; ; attempt++) {
            List<ServerSocket> held = List.of(new ServerSocket(0), new ServerSocket(0), new ServerSocket(0));
            a = new Instance("127.0.0.1", held.get(0).getLocalPort());
            b = new Instance("127.0.0.1", held.get(1).getLocalPort());
            c = new Instance("127.0.0.1", held.get(2).getLocalPort());
            try {
                List<Instance> instances = List.of(a, b, c);
                for (int i = 0; i < instances.size(); i++) {
                    held.get(i).close();
                    serve(instances.get(i));
                }
                return;
            } catch (io.javalin.util.JavalinBindException e) {
                for (ServerSocket socket : held) {
                    socket.close();
                }
                stop();
                apps.clear();
                fakes.clear();
                forwarders.clear();
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    @AfterEach
    void stop() {
        apps.values().forEach(Javalin::stop);
        forwarders.forEach(Forwarder::close);
    }

    // ---------------------------------------------------------------- batch

    @Test
    void shouldAnswerTheIdsOfAFailedOwnerFromTheirStandbysWhenBatching() throws Exception {
        ownership.put("p-a", new Ownership(1, Optional.of(a), List.of(c)));
        ownership.put("p-b", new Ownership(2, Optional.of(b), List.of(a)));
        ownership.put("p-c", new Ownership(3, Optional.of(b), List.of(c)));
        ownership.put("p-gone", new Ownership(2, Optional.of(b), List.of(a)));
        fakes.get(c).replicaLag = 0;
        apps.get(b).stop();

        HttpResponse<String> response = batch(a, "", "p-c", "p-a", "p-gone", "p-b");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(response.headers().firstValue("X-Lag-Records")).hasValue("1");
        assertThat(response.headers().firstValue("X-Served-By").orElseThrow().split(","))
                .containsExactlyInAnyOrder(a.hostPort(), c.hostPort());
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("products")).extracting(p -> p.get("id").asText() + " " + p.get("readBy").asText())
                .containsExactly("p-c " + c.hostPort() + " replica", "p-a " + a.hostPort() + " active",
                        "p-b " + a.hostPort() + " replica");
        assertThat(body.get("missing")).extracting(JsonNode::asText).containsExactly("p-gone");
    }

    @Test
    void shouldNotMarkABatchStaleWhenEveryOwnerAnswers() throws Exception {
        ownership.put("p-a", new Ownership(1, Optional.of(a), List.of(c)));
        ownership.put("p-b", new Ownership(2, Optional.of(b), List.of(a)));

        HttpResponse<String> response = batch(a, "", "p-a", "p-b");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(b.hostPort() + "," + a.hostPort());
        assertThat(JSON.readTree(response.body()).at("/products/1/readBy").asText()).isEqualTo(b.hostPort() + " active");
    }

    @Test
    void shouldRefuseTheWholeBatchWhenFreshIsAskedOrAStandbyCannotAnswer() throws Exception {
        ownership.put("p-a", new Ownership(1, Optional.of(a), List.of(c)));
        ownership.put("p-b", new Ownership(2, Optional.of(b), List.of(c)));
        fakes.get(b).activeDown = true;
        assertUnavailable(batch(a, "?fresh=true", "p-a", "p-b"));

        fakes.get(c).replicaLag = 7;
        assertUnavailable(batch(a, "", "p-a", "p-b"));

        fakes.get(c).replicaLag = 1;
        fakes.get(a).activeDown = true; // a's own part fails over to c as well
        HttpResponse<String> both = batch(a, "", "p-a", "p-b");
        assertThat(both.statusCode()).isEqualTo(200);
        assertThat(both.headers().firstValue("X-Served-By")).hasValue(c.hostPort());

        ownership.put("p-b", new Ownership(2, Optional.empty(), List.of()));
        assertUnavailable(batch(a, "", "p-a", "p-b"));
    }

    // ---------------------------------------------------------------- fixtures

    private static void assertUnavailable(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("unavailable");
    }

    private void serve(Instance self) {
        KeyOwners owners = new KeyOwners() {
            @Override
            public Instance self() {
                return self;
            }

            @Override
            public Ownership ownerOfProduct(String productId) {
                return ownership.getOrDefault(productId, new Ownership(9, Optional.empty(), List.of()));
            }

            @Override
            public Map<Integer, Instance> activeOwners(String storeName) {
                return Map.of();
            }

            @Override
            public int partitions() {
                return 4;
            }
        };
        Fake fake = new Fake(self);
        fakes.put(self, fake);
        Forwarder forwarder = new Forwarder(self, Duration.ofSeconds(2), 2, PEERS);
        forwarders.add(forwarder);
        StaleReads stale = new StaleReads(self, 1);
        FanOutRouter fanOut = new FanOutRouter(self, forwarder, stale, Duration.ofSeconds(5));
        ListingRoutes listing = new ListingRoutes(owners, fake, new CursorCodec("test-app"), fanOut);
        BatchRoutes batch = new BatchRoutes(owners, fake.products, fanOut);
        Javalin app = Javalin.create(cfg -> {
            cfg.jetty.port = self.port();
            cfg.startup.showJavalinBanner = false;
            cfg.routes.before(PEERS::verify);
            cfg.routes.get(ListingRoutes.PRODUCTS_PATH, listing::products);
            cfg.routes.get(ListingRoutes.FACETS_PATH, listing::facets);
            cfg.routes.post("/v1/products/batch", batch::batch);
            cfg.routes.post(BatchRoutes.INTERNAL_BATCH_PATH, batch::internalBatch);
            cfg.routes.exception(ApiException.class, (e, ctx) -> Responses.error(ctx, e));
        });
        app.start();
        apps.put(self, app);
    }

    private static HttpResponse<String> get(Instance target, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> batch(Instance target, String query, String... ids) throws Exception {
        String body = "{\"ids\":[\"" + String.join("\",\"", ids) + "\"]}";
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + "/v1/products/batch" + query))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] json(String id, String readBy) {
        return ("{\"id\":\"" + id + "\",\"readBy\":\"" + readBy + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One instance's stores: every product but {@code p-gone}; the active reads fail while
     * {@code activeDown} (and its own copy then reports an unknown lag), the replica reads report {@code replicaLag}.
     */
    private static final class Fake implements ListingQueries {
        final Instance self;
        volatile boolean activeDown;
        volatile long replicaLag = 1;
        final ProductQueries products = new FakeProducts();

        Fake(Instance self) {
            this.self = self;
        }

        private static QueryFailure down() {
            return QueryFailure.retryLater("down");
        }

        /** An instance whose active reads are down restores from scratch: its own copy's lag is unknown too. */
        private long copyLag() {
            return activeDown ? -1 : replicaLag;
        }

        @Override
        public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
            throw new UnsupportedOperationException();
        }

        private final class FakeProducts implements ProductQueries {
            private ProductLookup lookup(String id, String how) {
                return id.equals("p-gone") ? ProductLookup.ABSENT
                        : new ProductLookup.Found(1, json(id, self.hostPort() + " " + how));
            }

            @Override
            public ProductLookup get(String id) {
                return activeDown ? new ProductLookup.Failed(down()) : lookup(id, "active");
            }

            @Override
            public List<ProductLookup> getAll(List<String> ids) {
                return ids.stream().map(this::get).toList();
            }

            @Override
            public ReplicaRead getFromAnyReplica(String id) {
                return new ReplicaRead(lookup(id, "replica"), copyLag());
            }

            @Override
            public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
                return new ReplicaBatch(ids.stream().map(id -> lookup(id, "replica")).toList(), copyLag());
            }
        }
    }
}
