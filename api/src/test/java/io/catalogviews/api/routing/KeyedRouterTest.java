package io.catalogviews.api.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import io.javalin.Javalin;
import io.javalin.http.Context;
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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every decision of the {@link KeyedRouter}, on real sockets: three instances {@code a}, {@code b}, {@code c}, each
 * a router with its real {@link Forwarder} over an in-memory store of the same items. A request is always sent to
 * {@code a}; the metadata (who owns the key, who holds standbys) is set per test. An answer names the instance and
 * the copy that read it ({@code "item-1 read by <host:port> active"}), and every call an instance makes to another
 * is recorded, so the tests see who answered and who was asked.
 */
class KeyedRouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration FORWARD_TIMEOUT = Duration.ofMillis(800);
    private static final PeerHeaders PEERS = new PeerHeaders("keyed-router-test-secret", null);

    private final Map<String, Ownership> ownership = new ConcurrentHashMap<>();
    private final Map<Instance, Node> nodes = new LinkedHashMap<>();
    private Instance a;
    private Instance b;
    private Instance c;

    /** One instance: its store, what it asked of the others, and its server. */
    private final class Node {
        final Instance self;
        final Forwarder forwarder;
        final Queue<String> calls = new ConcurrentLinkedQueue<>();
        volatile QueryFailure activeRefusal;
        volatile Runnable onActiveRead = () -> { };
        volatile long copyLag = 1;
        volatile boolean hang;
        volatile int rawStatus;
        volatile String rawRetryAfter;
        Javalin app;

        Node(Instance self) {
            this.self = self;
            this.forwarder = new Forwarder(self, Duration.ofSeconds(1), 2, PEERS);
        }

        void serve() {
            serve(PEERS);
        }

        void serve(PeerHeaders peers) {
            Peers recorded = (target, request, timeout) -> {
                calls.add(target.hostPort() + (request.replicaRead() ? " replica" : " owner"));
                return forwarder.send(target, request, timeout);
            };
            KeyedRouter router = new KeyedRouter(self, recorded, new StaleReads(self, 1), FORWARD_TIMEOUT);
            app = Javalin.create(cfg -> {
                cfg.jetty.port = self.port();
                cfg.startup.showJavalinBanner = false;
                cfg.routes.before(peers::verify);
                cfg.routes.get("/items/{key}", ctx -> {
                    if (rawStatus != 0) {
                        ctx.header("Retry-After", rawRetryAfter).status(rawStatus).result("{\"error\":{}}");
                        return;
                    }
                    String key = ctx.pathParam("key");
                    boolean fresh = "true".equals(ctx.queryParam("fresh"));
                    PeerRequest request = PeerRequest.get(RequestTarget.path("/items").segment(key)
                            .param("fresh", fresh ? "true" : null));
                    router.route(ctx, KeyedRead.<String>of("test view", request,
                                    () -> ownership.getOrDefault(key, new Ownership(7, Optional.empty(), List.of())),
                                    () -> activeRead(key), () -> new ReplicaCopy<>(item(key), copyLag),
                                    (answering, item, fromActive) -> answer(answering, item, fromActive))
                            .fresh(fresh));
                });
                cfg.routes.exception(ApiException.class, (e, ctx) -> Responses.error(ctx, e));
            });
            app.start();
        }

        private LocalRead<String> activeRead(String key) {
            onActiveRead.run();
            return activeRefusal != null ? new LocalRead.Refused<>(activeRefusal) : item(key);
        }

        private LocalRead<String> item(String key) {
            return new LocalRead.Answered<>(key.startsWith("missing") ? null : key);
        }

        private CompletableFuture<Void> answer(Context ctx, String item, boolean fromActive) {
            if (hang) {
                return new CompletableFuture<>(); // an owner that never answers
            }
            if (item == null) {
                throw ReadFailures.notFound("item");
            }
            ctx.status(200).result(item + " read by " + self.hostPort() + (fromActive ? " active" : " copy"));
            return CompletableFuture.completedFuture(null);
        }

        void restart(PeerHeaders peers) {
            app.stop();
            serve(peers);
        }

        void stop() {
            if (app != null) {
                app.stop();
            }
            forwarder.close();
        }
    }

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
                    Node node = new Node(instances.get(i));
                    nodes.put(node.self, node);
                    node.serve();
                }
                return;
            } catch (io.javalin.util.JavalinBindException e) {
                for (ServerSocket socket : held) {
                    socket.close();
                }
                stop();
                nodes.clear();
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    @AfterEach
    void stop() {
        nodes.values().forEach(Node::stop);
    }

    // ---------------------------------------------------------------- local or forward

    @Test
    void shouldAnswerFromItsOwnStoreWithoutAskingAnotherInstanceWhenItOwnsTheKey() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(a), List.of(b)));

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + a.hostPort() + " active");
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(a.hostPort());
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(calls()).isEmpty();
    }

    @Test
    void shouldForwardOnceAndRelayTheOwnersAnswerWhenAnotherInstanceOwnsTheKey() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + b.hostPort() + " active");
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(b.hostPort());
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldRefuseWithoutForwardingAgainWhenASignedForwardedRequestReachesAnInstanceThatDoesNotOwnTheKey()
            throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(a)));

        HttpResponse<String> response = signed(PEERS, a, PeerRequest.get("/items/item-1"), Duration.ofSeconds(2));

        assertUnavailable(response);
        assertThat(calls()).as("a forwarded request is never forwarded again, not even to a standby").isEmpty();
    }

    // ---------------------------------------------------------------- internal headers only from peers

    @Test
    void shouldRecogniseASignedRequestWhoseKeyNeedsPercentEncoding() throws Exception {
        String key = "item:1~x.y";
        ownership.put(key, new Ownership(1, Optional.of(b), List.of(a)));
        PeerRequest forwarded = PeerRequest.get(RequestTarget.path("/items").segment(key));
        assertThat(forwarded.pathAndQuery()).isEqualTo("/items/item%3A1~x.y");

        HttpResponse<String> response = signed(PEERS, a, forwarded, Duration.ofSeconds(2));

        assertUnavailable(response);
        assertThat(calls()).as("the signature verified over the encoded path: never forwarded again").isEmpty();
    }

    @Test
    void shouldIgnoreTheInternalHeadersWhenNoPeerSignedThem() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(a)));
        String forgedSignature = System.currentTimeMillis() + ":" + "A".repeat(43);

        List<HttpResponse<String>> responses = List.of(
                get(a, "/items/item-1", "X-Catalog-Forwarded-By", c.hostPort(), "X-Catalog-Replica-Read", "true",
                        "X-Catalog-Deadline", "1"),
                get(a, "/items/item-1", "X-Catalog-Forwarded-By", c.hostPort(), "X-Catalog-Signature",
                        forgedSignature),
                get(a, "/items/item-1", "X-Catalog-Signature", "garbage", "X-Catalog-Replica-Read", "yes"),
                signed(new PeerHeaders("another-deployment-secret", null), a,
                        PeerRequest.get("/items/item-1").toReplica(), Duration.ofSeconds(2)),
                signed(new PeerHeaders("keyed-router-test-secret", null, Clock.offset(Clock.systemUTC(),
                        PeerHeaders.MAX_CLOCK_SKEW.plusSeconds(5).negated())), a,
                        PeerRequest.get("/items/item-1").toReplica(), Duration.ofMinutes(5)));

        for (HttpResponse<String> response : responses) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.body()).as("answered as a client's request: forwarded to the owner")
                    .isEqualTo("item-1 read by " + b.hostPort() + " active");
            assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        }
        assertThat(calls()).hasSize(responses.size()).containsOnly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldHonourASignedReplicaReadUnlessFreshIsAsked() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(a), List.of(b)));
        PeerRequest replicaRead = PeerRequest.get("/items/item-1").toReplica();

        HttpResponse<String> stale = signed(PEERS, a, replicaRead, Duration.ofSeconds(2));
        HttpResponse<String> fresh = signed(PEERS, a, PeerRequest.get(RequestTarget.path("/items").segment("item-1")
                .param("fresh", "true")).toReplica(), Duration.ofSeconds(2));

        assertThat(stale.body()).isEqualTo("item-1 read by " + a.hostPort() + " copy");
        assertThat(stale.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(fresh.body()).as("fresh=true wins over any header")
                .isEqualTo("item-1 read by " + a.hostPort() + " active");
        assertThat(fresh.headers().firstValue("X-Stale")).isEmpty();
    }

    @Test
    void shouldAcceptTheSignatureOfThePreviousClusterSecretDuringARotation() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(a)));
        PeerHeaders rotated = new PeerHeaders("the-next-cluster-secret", "keyed-router-test-secret");
        nodes.get(a).restart(rotated);

        HttpResponse<String> fromOldPeer = signed(PEERS, a, PeerRequest.get("/items/item-1"), Duration.ofSeconds(2));
        HttpResponse<String> fromNewPeer = signed(new PeerHeaders("the-next-cluster-secret", null), a,
                PeerRequest.get("/items/item-1"), Duration.ofSeconds(2));

        assertUnavailable(fromOldPeer);
        assertUnavailable(fromNewPeer);
        assertThat(calls()).as("both were recognised as forwarded: never forwarded again").isEmpty();
    }

    @Test
    void shouldStopAndAnswerOwnerTimeoutWithinFiftyMillisecondsOfTheCallersDeadline() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of()));
        nodes.get(b).hang = true;
        nodes.get(b).copyLag = -1; // no copy of the warm-up's partition either: it is refused, not answered stale
        Duration budget = Duration.ofMillis(300);
        // The callee counts the budget from the request's arrival: open the connection first, as a peer's pool has.
        assertThat(get(b, "/items/warm-up").statusCode()).isEqualTo(503);

        long start = System.nanoTime();
        HttpResponse<String> response = signed(PEERS, b, PeerRequest.get("/items/item-1"), budget);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("owner_timeout");
        assertThat(took).as("answered by the caller's deadline plus 50 ms").isLessThan(budget.plusMillis(50));
        assertThat(took).isGreaterThanOrEqualTo(budget.minusMillis(5));
    }

    @Test
    void shouldAnswerOwnerTimeoutAtOnceWhenTheCallersDeadlinePassedBeforeTheRequestArrived() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of()));

        HttpResponse<String> response = signed(PEERS, b, PeerRequest.get("/items/item-1"), Duration.ZERO);

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("owner_timeout");
    }

    @Test
    void shouldAskTheNewOwnerOnceWhenItsStoreSaysThePartitionMovedAway() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(a), List.of()));
        Node first = nodes.get(a);
        first.activeRefusal = QueryFailure.notHostedHere("partition 1 moved");
        first.onActiveRead = () -> ownership.put("item-1", new Ownership(1, Optional.of(b), List.of()));

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(b.hostPort());
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    // ---------------------------------------------------------------- standby fallback

    @Test
    void shouldAnswerFromTheOwnersOwnCopyMarkedStaleWhenItsActiveCopyCannotBeReadDuringARebalance()
            throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        nodes.get(b).activeRefusal = QueryFailure.retryLater("stream thread rebalancing");

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + b.hostPort() + " copy");
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(response.headers().firstValue("X-Lag-Records")).hasValue("1");
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner");
        assertUnavailable(get(a, "/items/item-1?fresh=true"));
    }

    @Test
    void shouldAnswerFromItsOwnCopyWhenTheMetadataNamesAnotherStandbyThatLeft() throws Exception {
        // A rebalance is under way: b left (unreachable), and the metadata still names it, and c, not a, as standby;
        // a's copy of the partition (just moved to it, or just moved away) is close enough to answer.
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        nodes.get(b).stop();
        nodes.get(c).stop();

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + a.hostPort() + " copy");
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldAnswerFromTheStandbyMarkedStaleWithItsLagWhenTheOwnerCannotAnswer() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        nodes.get(b).activeRefusal = QueryFailure.retryLater("restoring");
        nodes.get(b).copyLag = -1; // its own copy is restoring from scratch: lag unknown
        nodes.get(a).copyLag = -1; // a holds no copy of the partition
        nodes.get(c).copyLag = 0;

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + c.hostPort() + " copy");
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(response.headers().firstValue("X-Lag-Records")).hasValue("0");
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(c.hostPort());
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner",
                a.hostPort() + " -> " + c.hostPort() + " replica");
    }

    @Test
    void shouldAnswerFromItsOwnStandbyMarkedStaleWhenTheOwnerIsUnreachable() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c, a)));
        nodes.get(b).stop();

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + a.hostPort() + " copy");
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");
        assertThat(response.headers().firstValue("X-Lag-Records")).hasValue("1");
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldAnswerFromItsOwnCopyAndNeverRelayAFiveHundredWhenTheOwnerAnswersWithAnInternalError()
            throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(a)));
        nodes.get(b).rawStatus = 500; // what a stopping Jetty answered before the graceful stop
        nodes.get(b).rawRetryAfter = "1";

        HttpResponse<String> response = get(a, "/items/item-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + a.hostPort() + " copy");
        assertThat(response.headers().firstValue("X-Stale")).hasValue("true");

        nodes.get(a).copyLag = -1; // no copy here any more: the owner's failure becomes a refusal, not a 500
        for (int status : new int[] {500, 502}) {
            nodes.get(b).rawStatus = status;
            assertUnavailable(get(a, "/items/item-1"));
        }
    }

    @Test
    void shouldRefuseRatherThanAnswerFromAStandbyWhenFreshIsAsked() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        nodes.get(b).activeRefusal = QueryFailure.retryLater("restoring");

        HttpResponse<String> response = get(a, "/items/item-1?fresh=true");

        assertUnavailable(response);
        // The owner is asked again while its partition may be moving (KeyedRouter.MOVING_RETRY_DELAYS_MS), the
        // standby never.
        assertThat(calls()).hasSize(1 + KeyedRouter.MOVING_RETRY_DELAYS_MS.length)
                .containsOnly(a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldAnswerFromTheOwnerWhenItsRefusalWhileMovingPassesWithinTheRetries() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        Node owner = nodes.get(b);
        owner.activeRefusal = QueryFailure.retryLater("rebalancing");
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        owner.onActiveRead = () -> {
            if (reads.incrementAndGet() == 2) {
                owner.activeRefusal = null; // the rebalance has ended when the second attempt reads
            }
        };

        HttpResponse<String> response = get(a, "/items/item-1?fresh=true");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("item-1 read by " + b.hostPort() + " active");
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(calls()).containsExactly(a.hostPort() + " -> " + b.hostPort() + " owner",
                a.hostPort() + " -> " + b.hostPort() + " owner");
    }

    @Test
    void shouldRefuseWhenTheOnlyStandbyIsTooFarBehindOrThereIsNoOwnerAndNoStandby() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of(c)));
        nodes.get(b).activeRefusal = QueryFailure.retryLater("restoring");
        nodes.get(b).copyLag = 2;
        nodes.get(c).copyLag = 2;
        nodes.get(a).copyLag = -1;
        assertUnavailable(get(a, "/items/item-1"));

        ownership.put("item-1", new Ownership(1, Optional.empty(), List.of()));
        assertUnavailable(get(a, "/items/item-1"));
    }

    // ---------------------------------------------------------------- the status of a refusal

    @Test
    void shouldPassOnTheOwnersRetryAfterClampedToAMinuteWhenTheOwnerRefusesAndNoStandbyMayAnswer()
            throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of()));
        nodes.get(b).rawStatus = 503;
        nodes.get(b).rawRetryAfter = "120";
        nodes.get(a).copyLag = -1; // a holds no copy of the partition

        HttpResponse<String> response = get(a, "/items/item-1");

        assertUnavailable(response);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("60");
    }

    @Test
    void shouldAnswerOwnerTimeoutWhenTheOwnerDoesNotAnswerInTime() throws Exception {
        ownership.put("item-1", new Ownership(1, Optional.of(b), List.of()));
        nodes.get(b).hang = true;
        nodes.get(a).copyLag = -1; // a holds no copy of the partition
        long start = System.nanoTime();

        HttpResponse<String> response = get(a, "/items/item-1");

        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("owner_timeout");
        assertThat(tookMs).as("waited about the forward timeout").isBetween(FORWARD_TIMEOUT.toMillis(), 5_000L);
    }

    @Test
    void shouldAnswerNotFoundWhetherTheKeyIsReadHereOrByTheOwner() throws Exception {
        ownership.put("missing-1", new Ownership(1, Optional.of(a), List.of()));
        ownership.put("missing-2", new Ownership(2, Optional.of(b), List.of()));

        for (String key : List.of("missing-1", "missing-2")) {
            HttpResponse<String> response = get(a, "/items/" + key);
            assertThat(response.statusCode()).as(key).isEqualTo(404);
            assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("not_found");
        }
    }

    // ---------------------------------------------------------------- fixtures

    /** Every call an instance made to another, as {@code "from -> to owner|replica"}, instances in a, b, c order. */
    private List<String> calls() {
        List<String> out = new ArrayList<>();
        nodes.values().forEach(node -> node.calls.forEach(call -> out.add(node.self.hostPort() + " -> " + call)));
        return out;
    }

    private static void assertUnavailable(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
        assertThat(response.headers().firstValue("X-Stale")).isEmpty();
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("unavailable");
    }

    /** Sends {@code request} to {@code target} as a peer signed by {@code signer} would, with that budget. */
    private HttpResponse<String> signed(PeerHeaders signer, Instance target, PeerRequest request, Duration budget)
            throws Exception {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create("http://" + target.hostPort()
                + request.pathAndQuery()));
        signer.sign(http, request, c, budget);
        return HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(Instance target, String pathAndQuery, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + pathAndQuery));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
