package io.catalogviews.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.health.Readiness;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bounds of CONTRACT.md §4 on the real {@link ApiServer} (its Jetty settings, routers and caps), two instances
 * on real sockets over in-memory views: ids starting with {@code a-} live on {@code a}, the others on {@code b}.
 * Clients that do not read are raw sockets with a 4 KB receive buffer asking for answers of several MB, more than
 * the kernel buffers on both sides hold, so the server's write to them blocks.
 */
@Timeout(120)
class RequestBoundsHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The name of the threads of the server's pool (ApiServer), as {@link #blockedWriters()} reports them. */
    private static final String SERVER_THREADS = "http";
    /** Larger than the server's largest send buffer (4 MB here) plus a client's 4 KB receive window. */
    private static final int LARGE = 6 * 1024 * 1024;

    private final List<ApiServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        servers.forEach(ApiServer::close);
    }

    @Test
    void shouldRefuseWithUnavailableAndRetryAfterWhenForwardsInFlightReachTheCap() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Pair pair = start(settings -> settings.withBounds(10, 2, 100, Duration.ofSeconds(30)), release);
        List<CompletableFuture<HttpResponse<String>>> parked = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            parked.add(getAsync(pair.a(), "/v1/products/b-slow-" + i));
        }
        await().alias("two forwards are in flight").atMost(Duration.ofSeconds(10))
                .until(() -> pair.views(pair.b()).slowReads.getCount() == 0);

        HttpResponse<String> refused = get(pair.a(), "/v1/products/b-1");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("unavailable");
        assertThat(get(pair.a(), "/v1/products/a-1").statusCode()).as("a local read needs no forward").isEqualTo(200);
        release.countDown();
        for (CompletableFuture<HttpResponse<String>> call : parked) {
            assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(get(pair.a(), "/v1/products/b-1").statusCode()).as("below the cap again").isEqualTo(200);
    }

    @Test
    void shouldRefuseWithUnavailableAndRetryAfterWhenWaitersReachTheCap() throws Exception {
        Pair pair = start(settings -> settings.withBounds(2, 10, 100, Duration.ofSeconds(30)), null);
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            waiting.add(getAsync(pair.a(), "/v1/products/a-1?minVersion=9&waitMs=3000"));
        }
        await().alias("two requests wait for a version").atMost(Duration.ofSeconds(10))
                .until(() -> pair.server(pair.a()).waitingForVersions() == 2);

        HttpResponse<String> refused = get(pair.a(), "/v1/products/a-2?minVersion=9&waitMs=3000");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        for (CompletableFuture<HttpResponse<String>> call : waiting) {
            assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(409);
        }
    }

    @Test
    void shouldKeepForwardingWhenClientsDoNotReadLargeForwardedAnswers() throws Exception {
        Pair pair = start(settings -> settings, null);
        // More clients than the forwarder has threads (2): each would hold the thread that completes its forward.
        for (int i = 0; i < 4; i++) {
            notReading(pair.a(), "/v1/products/b-large-" + i);
        }
        await().alias("a writes the four large answers from b").atMost(Duration.ofSeconds(30))
                .until(() -> pair.server(pair.a()).forwardsInFlight() == 0 && blockedWrites() >= 4);

        long start = System.nanoTime();
        HttpResponse<String> forwarded = get(pair.a(), "/v1/products/b-1");
        long ms = (System.nanoTime() - start) / 1_000_000;

        System.out.printf("a forwarded read answered in %d ms while 4 clients did not read 6 MB forwarded answers "
                + "(threads blocked writing to them: %s)%n", ms, blockedWriters());
        assertThat(forwarded.statusCode()).isEqualTo(200);
        assertThat(ms).as("the forwarder's threads were free (the idle timeout would free them after 30 s)")
                .isLessThan(5_000);
        // Sampled stacks also catch a thread in the middle of an ordinary write (the answer just relayed): the four
        // blocked ones stay, any other passes within moments.
        await().alias("only the four writes to clients that do not read stay blocked").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(blockedWriters())
                        .as("threads blocked writing to clients that do not read")
                        .hasSize(4).allMatch(SERVER_THREADS::equals));
    }

    @Test
    void shouldEndOtherWaitsWhenClientsDoNotReadLargeAnswersToTheirWaits() throws Exception {
        Pair pair = start(settings -> settings, null);
        // Each reaches its version on the waiters' own thread, which then completes the request.
        for (int i = 0; i < 2; i++) {
            notReading(pair.a(), "/v1/products/a-large-grows-" + i + "?minVersion=2&waitMs=5000");
        }
        await().alias("both waits reached their version").atMost(Duration.ofSeconds(30))
                .until(() -> pair.server(pair.a()).waitingForVersions() == 0 && blockedWrites() >= 2);

        long start = System.nanoTime();
        HttpResponse<String> timedOut = get(pair.a(), "/v1/products/a-1?minVersion=2&waitMs=200");
        long ms = (System.nanoTime() - start) / 1_000_000;

        System.out.printf("a wait of 200 ms ended in %d ms while 2 clients did not read the 6 MB answers to their "
                + "waits (threads blocked writing to them: %s)%n", ms, blockedWriters());
        assertThat(timedOut.statusCode()).isEqualTo(409);
        assertThat(ms).as("the waiters' thread was free (the idle timeout would free it after 30 s)")
                .isLessThan(5_000);
        // Sampled stacks also catch a thread in the middle of an ordinary write (the 409 just sent): the two blocked
        // ones stay, any other passes within moments.
        await().alias("only the two writes to clients that do not read stay blocked").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(blockedWriters())
                        .as("threads blocked writing to clients that do not read")
                        .hasSize(2).allMatch(SERVER_THREADS::equals));
    }

    /**
     * Answered directly (DirectAnswers), a product's answer is written without holding a thread; through the route,
     * a thread blocks writing it: either way the last connection is answered.
     */
    @ParameterizedTest(name = "direct answers {0}")
    @ValueSource(booleans = {true, false})
    void shouldAnswerOtherClientsWhenEveryConnectionButOneDoesNotRead(boolean directAnswers) throws Exception {
        int connections = 12;
        Pair pair = start(settings -> settings.withBounds(10, 10, connections, Duration.ofSeconds(30))
                .withDirectAnswers(directAnswers), null);
        for (int i = 0; i < connections - 1; i++) {
            notReading(pair.a(), "/v1/products/a-large-" + i);
        }
        await().alias("every large answer is being written to a client that does not read")
                .atMost(Duration.ofSeconds(60))
                .until(() -> pair.views(pair.a()).largeReads.get() >= connections - 1
                        && (directAnswers || blockedWrites() >= connections - 1));

        long start = System.nanoTime();
        HttpResponse<String> answer = get(pair.a(), "/v1/products/a-1");
        long ms = (System.nanoTime() - start) / 1_000_000;

        System.out.printf("a read answered in %d ms while %d of %d connections did not read 6 MB answers%n", ms,
                connections - 1, connections);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(ms).as("a thread was free (the idle timeout would free one after 30 s)").isLessThan(5_000);
    }

    @Test
    void shouldServeNoMoreConnectionsThanTheLimitUntilOneCloses() throws Exception {
        Pair pair = start(settings -> settings.withBounds(10, 10, 2, Duration.ofSeconds(30)), null);
        List<Socket> held = List.of(notReading(pair.a(), "/v1/products/a-1"), notReading(pair.a(), "/v1/products/a-2"));
        HttpClient third = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + pair.a().hostPort() + "/v1/products/a-3"))
                .build();
        CompletableFuture<HttpResponse<String>> waiting = third.sendAsync(request, HttpResponse.BodyHandlers.ofString());

        Thread.sleep(1_000); // the third connection is not served while two are open: nothing to await but time
        assertThat(waiting).as("a third connection while two are open").isNotDone();
        held.get(0).close();

        assertThat(waiting.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldCloseAConnectionThatReadsNothingWhenTheIdleTimeoutPasses() throws Exception {
        Pair pair = start(settings -> settings.withBounds(10, 10, 100, Duration.ofMillis(1_500)), null);
        Socket socket = notReading(pair.a(), "/v1/products/a-large-1");
        await().alias("a answered the large read").atMost(Duration.ofSeconds(20))
                .until(() -> pair.views(pair.a()).largeReads.get() >= 1);
        long start = System.nanoTime();
        Thread.sleep(3_000); // the client reads nothing: this is what is being tested

        socket.setSoTimeout(10_000);
        long received = 0;
        byte[] buffer = new byte[65_536];
        try {
            for (int n = socket.getInputStream().read(buffer); n > 0; n = socket.getInputStream().read(buffer)) {
                received += n;
            }
        } catch (IOException reset) {
            // a reset after the timeout is a close too
        }

        System.out.printf("a client that read nothing for %d ms got %d of %d bytes before the connection closed%n",
                (System.nanoTime() - start) / 1_000_000, received, LARGE);
        assertThat(received).as("bytes before the close").isLessThan(LARGE);
    }

    // ---------------------------------------------------------------- fixtures

    private record Pair(Map<Instance, ApiServer> servers, Map<Instance, Views> views, Instance a, Instance b) {
        ApiServer server(Instance instance) {
            return servers.get(instance);
        }

        Views views(Instance instance) {
            return views.get(instance);
        }
    }

    private Pair start(java.util.function.UnaryOperator<ApiSettings> bounds, CountDownLatch slowRelease)
            throws IOException {
        ServerSocket heldA = new ServerSocket(0);
        ServerSocket heldB = new ServerSocket(0);
        Instance a = new Instance("127.0.0.1", heldA.getLocalPort());
        Instance b = new Instance("127.0.0.1", heldB.getLocalPort());
        Views viewsA = new Views(a, a, b, slowRelease);
        Views viewsB = new Views(b, a, b, slowRelease);
        heldA.close();
        ApiServer serverA = start(bounds.apply(ApiSettings.defaults(a.port())), viewsA);
        heldB.close();
        ApiServer serverB = start(bounds.apply(ApiSettings.defaults(b.port())), viewsB);
        return new Pair(Map.of(a, serverA, b, serverB), Map.of(a, viewsA, b, viewsB), a, b);
    }

    private ApiServer start(ApiSettings settings, Views views) {
        Readiness ready = () -> true;
        ApiServer server = ApiServer.start(settings, new ViewAccess(views, views, unsupported(ListingQueries.class),
                unsupported(ClusterView.class)), new CursorCodec("test"), new PeerHeaders("test-cluster-secret-0001", null),
                ready);
        servers.add(server);
        return server;
    }

    /** Threads of this JVM blocked writing an HTTP answer (Jetty's blocking write waits on the socket). */
    private static long blockedWrites() {
        return blockedWriters().size();
    }

    private static List<String> blockedWriters() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(frame -> frame.getClassName().endsWith("HttpOutput")
                        && frame.getMethodName().equals("channelWrite")))
                .map(e -> e.getKey().getName().replaceAll("-\\d+$", "")).sorted().toList();
    }

    /** Sends a GET for a large answer and never reads it. */
    private Socket notReading(Instance target, String path) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096); // before connecting, so that the window is small from the start
        socket.connect(new InetSocketAddress(target.host(), target.port()));
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        sockets.add(socket);
        return socket;
    }

    private static HttpResponse<String> get(Instance target, String path) throws Exception {
        return HTTP.send(request(target, path), HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> getAsync(Instance target, String path) {
        return HTTP.sendAsync(request(target, path), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(Instance target, String path) {
        return HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + path))
                .timeout(Duration.ofSeconds(30)).build();
    }

    @SuppressWarnings("unchecked")
    private static <T> T unsupported(Class<T> type) {
        return (T) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName() + " is not used here");
                });
    }

    /**
     * One instance's view of the products: {@code *-large-*} are {@link #LARGE} bytes, {@code *-slow-*} wait for
     * the release latch (as a store read stuck behind a slow disk would), {@code *-grows-*} are at version 1 when
     * first read and at version 2 after, every other product is at version 1.
     */
    private static final class Views implements KeyOwners, ProductQueries {
        private final Instance self;
        private final Instance a;
        private final Instance b;
        private final CountDownLatch slowRelease;
        final CountDownLatch slowReads = new CountDownLatch(2);
        final java.util.concurrent.atomic.AtomicInteger largeReads = new java.util.concurrent.atomic.AtomicInteger();
        private final Map<String, Integer> reads = new java.util.concurrent.ConcurrentHashMap<>();

        Views(Instance self, Instance a, Instance b, CountDownLatch slowRelease) {
            this.self = self;
            this.a = a;
            this.b = b;
            this.slowRelease = slowRelease;
        }

        @Override
        public Instance self() {
            return self;
        }

        @Override
        public Ownership ownerOfProduct(String productId) {
            return new Ownership(partitionOf(productId), Optional.of(productId.startsWith("a-") ? a : b), List.of());
        }

        @Override
        public Map<Integer, Instance> activeOwners(String storeName) {
            return Map.of(0, a, 1, b);
        }

        @Override
        public int partitions() {
            return 2;
        }

        private static int partitionOf(String id) {
            return id.startsWith("a-") ? 0 : 1;
        }

        @Override
        public ProductLookup get(String id) {
            if (partitionOf(id) != (self.equals(a) ? 0 : 1)) {
                return new ProductLookup.Failed(QueryFailure.notHostedHere("not here"));
            }
            if (id.contains("-slow-") && slowRelease != null) {
                slowReads.countDown();
                try {
                    slowRelease.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] json;
            if (id.contains("-large-")) {
                largeReads.incrementAndGet();
                byte[] filler = new byte[LARGE];
                Arrays.fill(filler, (byte) 'x');
                json = ("{\"id\":\"" + id + "\",\"filler\":\"" + new String(filler, StandardCharsets.US_ASCII)
                        + "\"}").getBytes(StandardCharsets.US_ASCII);
            } else {
                json = ("{\"id\":\"" + id + "\",\"version\":1}").getBytes(StandardCharsets.US_ASCII);
            }
            // A "grows" product is at version 1 on its first read, at version 2 on every later one.
            long version = id.contains("-grows-") && reads.merge(id, 1, Integer::sum) > 1 ? 2 : 1;
            return new ProductLookup.Found(version, json);
        }

        @Override
        public List<ProductLookup> getAll(List<String> ids) {
            return ids.stream().map(this::get).toList();
        }

        @Override
        public ReplicaRead getFromAnyReplica(String id) {
            return new ReplicaRead(new ProductLookup.Failed(QueryFailure.retryLater("no replica")), -1);
        }

        @Override
        public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
            return new ReplicaBatch(ids.stream().<ProductLookup>map(id -> new ProductLookup.Failed(
                    QueryFailure.retryLater("no replica"))).toList(), -1);
        }
    }
}
