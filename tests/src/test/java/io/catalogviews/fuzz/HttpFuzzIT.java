package io.catalogviews.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.api.routing.RequestTarget;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceCluster;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.it.TestProducer;
import io.catalogviews.views.routing.Instance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 13 against two instances of the executable jar (separate JVMs, one standby each, a cluster secret): a seeded
 * generator ({@link HostileRequests}) sends thousands of hostile requests over every route, public and internal,
 * through raw sockets ({@link RawHttp}). No answer may be a 5xx but 503 with {@code Retry-After} or 504, and every
 * error is the contract's JSON body with a stable code. Then the cases of the issue one by one: a brand with
 * {@code |}, {@code {}, {@code "} forwarded to the owner; internal headers ignored unless signed with the cluster
 * secret; a callee that stops within 50 ms of its caller's deadline; {@code fresh=true} on {@code /v1/categories}.
 *
 * <p>{@code -Dfuzz.seed=N} and {@code -Dfuzz.requests=N} replay or widen a run (defaults 20261201, 6000).
 */
@Tag("integration")
@Timeout(300)
class HttpFuzzIT {

    private static final String SECRET = "http-fuzz-it-cluster-secret";
    private static final long SEED = Long.getLong("fuzz.seed", 20261201L);
    private static final int REQUESTS = Integer.getInteger("fuzz.requests", 6000);
    private static final int PARTITIONS = 6;
    private static final List<String> CATEGORIES = List.of("phones", "tvs", "laptops");
    private static final List<String> BRANDS = List.of("acme", "zeta", "a|b", "{x}", "\"q\"", "x^y", "é");
    private static final Set<String> ERROR_CODES = Set.of("bad_request", "not_found", "method_not_allowed",
            "version_not_reached", "too_large", "uri_too_long", "headers_too_large", "unsupported_media_type",
            "unavailable", "owner_timeout", "not_hosted", "request_timeout", "unauthorized");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static ServiceCluster cluster;
    private static final List<String> IDS = new ArrayList<>();

    @BeforeAll
    static void startTwoInstancesAndLoad() {
        cluster = ServiceCluster.start("http-fuzz", 2, PARTITIONS, 1, List.of("--cluster-secret", SECRET))
                .awaitEveryInstanceOwningProducts();
        try (TestProducer producer = cluster.producer()) {
            for (int i = 0; i < 60; i++) {
                String id = "fz-" + i;
                IDS.add(id);
                producer.sendSingleObject(upsert(product(id, BRANDS.get(i % BRANDS.size()),
                        List.of(CATEGORIES.get(i % CATEGORIES.size())), 1_000 + 37L * i, i % 4, null), 1));
            }
        }
        await().alias("both instances serve every product and list every category")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.instances().stream().allMatch(instance ->
                        IDS.stream().allMatch(id -> instance.http().get("/v1/products/" + id).status() == 200)
                                && instance.http().get("/v1/categories").json().get("categories").size() == 3));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldAnswerEveryHostileRequestWithoutAServerErrorAndWithTheContractsErrorBody() throws Exception {
        List<String> cursors = harvestCursors();
        HostileRequests generator = new HostileRequests(SEED, IDS, CATEGORIES, () -> cursors);
        SplittableRandom targets = new SplittableRandom(SEED);
        List<HostileRequests.HostileRequest> requests = new ArrayList<>(REQUESTS);
        List<ServiceProcess> sentTo = new ArrayList<>(REQUESTS);
        for (int i = 0; i < REQUESTS; i++) {
            requests.add(generator.next());
            sentTo.add(cluster.instance(targets.nextInt(2)));
        }

        Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                HostileRequests.HostileRequest request = requests.get(i);
                ServiceProcess instance = sentTo.get(i);
                done.add(pool.submit(() -> {
                    int port = Integer.parseInt(instance.hostPort().substring("localhost:".length()));
                    try {
                        RawHttp.Response response = RawHttp.exchange(port, request.bytes(port), request.halfClose(),
                                Duration.ofSeconds(20));
                        byStatus.computeIfAbsent(response.status(), s -> new AtomicInteger()).incrementAndGet();
                        String problem = problem(request, response);
                        if (problem != null) {
                            failures.add(problem + " ← " + request.describe());
                        }
                    } catch (IOException e) {
                        byStatus.computeIfAbsent(-1, s -> new AtomicInteger()).incrementAndGet();
                        failures.add("no answer (" + e.getMessage() + ") ← " + request.describe());
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        Map<Integer, Integer> counts = new TreeMap<>();
        byStatus.forEach((status, n) -> counts.put(status, n.get()));
        System.out.printf("HTTP fuzz (seed %d): %d requests to 2 instances in %.1f s; by status %s%n", SEED,
                REQUESTS, took.toMillis() / 1000.0, counts);
        assertThat(failures).as("answers that break the contract (first of %d)", failures.size())
                .isEmpty();
        assertThat(counts.keySet()).as("the generator reaches answers and refusals alike")
                .contains(200, 400, 404, 405);
        cluster.instances().forEach(instance -> assertThat(instance.isAlive()).isTrue());
    }

    @Test
    void shouldAnswerTheContractsClientErrorWhenTheHttpMessageItselfIsBroken() throws Exception {
        int port = port(cluster.instance(0));
        String batch = "POST /v1/products/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
        Map<String, RawHttp.Response> answers = new TreeMap<>();
        answers.put("1 body shorter than its Content-Length", RawHttp.exchange(port, (batch
                + "Content-Length: 100\r\n\r\n{\"ids\":[\"a\"]}").getBytes(StandardCharsets.UTF_8), true,
                Duration.ofSeconds(20)));
        answers.put("2 chunk size not hexadecimal", RawHttp.exchange(port, (batch + "Transfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(20)));
        answers.put("3 HTTP/1.7", RawHttp.exchange(port, "GET /v1/categories HTTP/1.7\r\nHost: x\r\n\r\n"
                .getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(20)));
        answers.put("4 no HTTP version", RawHttp.exchange(port, "GET /v1/categories\r\n\r\n"
                .getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(20)));
        answers.put("5 PATCH with 20 KB of headers", RawHttp.exchange(port, ("PATCH /v1/products HTTP/1.1\r\nHost: x"
                + "\r\nX-Long: " + "v".repeat(20_000) + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(20)));

        assertThat(answers).allSatisfy((what, response) -> {
            assertThat(response.status()).as(what).isBetween(400, 499);
            assertThat(response.header("Content-Type")).as(what).startsWith("application/json");
            assertThat(errorCode(response)).as(what).isIn(ERROR_CODES);
        });
        assertThat(answers.values()).extracting(RawHttp.Response::status).containsExactly(400, 400, 400, 400, 431);
    }

    @Test
    void shouldAnswerFromBothInstancesWhenABrandHoldsCharactersAUriCannotCarry() throws Exception {
        for (String category : CATEGORIES) {
            List<String> bodies = new ArrayList<>();
            boolean forwarded = false;
            for (ServiceProcess instance : cluster.instances()) {
                int port = port(instance);
                for (String target : List.of(
                        "/v1/products?category=" + category + "&brand=a|b&brand={x}&brand=\"q\"&brand=x^y",
                        "/v1/products?category=" + category + "&brand=" + enc("a|b") + "&brand=" + enc("{x}")
                                + "&brand=" + enc("\"q\"") + "&brand=" + enc("x^y"))) {
                    RawHttp.Response response = RawHttp.exchange(port, ("GET " + target + " HTTP/1.1\r\nHost: x\r\n"
                            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(20));

                    assertThat(response.status()).as("%s from %s: %s", target, instance.hostPort(), response.text())
                            .isEqualTo(200);
                    bodies.add(response.text());
                    forwarded |= !instance.hostPort().equals(response.header("X-Served-By"));
                }
            }
            assertThat(bodies).as("the same page whoever is asked").containsOnly(bodies.get(0));
            assertThat(JSON.readTree(bodies.get(0)).get("items")).as("products of those brands in %s", category)
                    .isNotEmpty();
            assertThat(forwarded).as("one instance forwarded %s to its owner", category).isTrue();
        }
    }

    @Test
    void shouldIgnoreInternalHeadersUnlessSignedWithTheClusterSecret() throws Exception {
        String id = IDS.get(0);
        String owner = cluster.instance(0).http().get("/v1/products/" + id).header("X-Served-By");
        ServiceProcess standby = cluster.instances().stream().filter(i -> !i.hostPort().equals(owner))
                .findFirst().orElseThrow();
        PeerRequest replicaRead = PeerRequest.get(RequestTarget.path("/v1/products").segment(id)).toReplica();

        HttpTestClient.Answer unsigned = standby.http().get("/v1/products/" + id, "X-Catalog-Replica-Read", "true");
        HttpResponse<String> forged = signed(new PeerHeaders("not-the-cluster-secret", null), standby, replicaRead,
                Duration.ofSeconds(5));

        assertThat(unsigned.status()).isEqualTo(200);
        assertThat(unsigned.header("X-Served-By")).as("a client's replica read goes to the owner").isEqualTo(owner);
        assertThat(unsigned.header("X-Stale")).isNull();
        assertThat(forged.statusCode()).isEqualTo(200);
        assertThat(forged.headers().firstValue("X-Served-By")).hasValue(owner);
        assertThat(forged.headers().firstValue("X-Stale")).isEmpty();
        await().alias("a peer's signed replica read is answered from the standby's own copy")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    HttpResponse<String> peer = signed(new PeerHeaders(SECRET, null), standby, replicaRead,
                            Duration.ofSeconds(5));
                    return peer.statusCode() == 200
                            && peer.headers().firstValue("X-Served-By").orElse("").equals(standby.hostPort())
                            && peer.headers().firstValue("X-Stale").orElse("").equals("true");
                });
    }

    @Test
    void shouldStopWithinFiftyMillisecondsOfTheCallersDeadlineWhenTheOwnerWaitsForAVersion() throws Exception {
        String id = IDS.get(1);
        String ownerHostPort = cluster.instance(0).http().get("/v1/products/" + id).header("X-Served-By");
        ServiceProcess owner = cluster.instances().stream().filter(i -> i.hostPort().equals(ownerHostPort))
                .findFirst().orElseThrow();
        PeerRequest wait = PeerRequest.get(RequestTarget.path("/v1/products").segment(id)
                .param("minVersion", 99).param("waitMs", 5000));
        Duration budget = Duration.ofMillis(400);
        PeerHeaders peers = new PeerHeaders(SECRET, null);
        // Open the connection first, as a peer's pool has: the callee counts the budget from the request's arrival.
        assertThat(signed(peers, owner, PeerRequest.get(RequestTarget.path("/v1/products").segment(id)), budget)
                .statusCode()).isEqualTo(200);

        long start = System.nanoTime();
        HttpResponse<String> response = signed(peers, owner, wait, budget);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        System.out.printf("Callee deadline: a %d ms budget was answered %d after %d ms%n", budget.toMillis(),
                response.statusCode(), took.toMillis());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("owner_timeout");
        assertThat(took).isGreaterThanOrEqualTo(budget.minusMillis(5)).isLessThan(budget.plusMillis(50));
    }

    @Test
    void shouldAcceptFreshOnEveryReadRouteWhenItChangesNothing() {
        for (ServiceProcess instance : cluster.instances()) {
            for (String target : List.of("/v1/categories?fresh=true", "/v1/products?fresh=true",
                    "/v1/facets?fresh=true", "/v1/products?category=tvs&fresh=true", "/v1/products/fz-3?fresh=true")) {
                HttpTestClient.Answer answer = instance.http().get(target);
                assertThat(answer.status()).as("%s on %s: %s", target, instance.hostPort(), answer.body())
                        .isEqualTo(200);
            }
            assertThat(instance.http().get("/v1/categories?fresh=true").body())
                    .isEqualTo(instance.http().get("/v1/categories").body());
        }
    }

    /** What is wrong with {@code response} under the contract, or null. */
    private static String problem(HostileRequests.HostileRequest request, RawHttp.Response response) {
        int status = response.status();
        if (status >= 500 && status != 503 && status != 504) {
            return "status " + status + " " + abbreviate(response.text());
        }
        if (status == 503) {
            String retryAfter = response.header("Retry-After");
            if (retryAfter == null || !retryAfter.matches("[1-9][0-9]?")) {
                return "503 without a Retry-After of 1..99 s (" + retryAfter + ")";
            }
        }
        if (status < 400 || request.method().equals("HEAD")) {
            return null;
        }
        String contentType = response.header("Content-Type");
        if (contentType == null || !contentType.startsWith("application/json")) {
            return status + " with Content-Type " + contentType + ": " + abbreviate(response.text());
        }
        try {
            JsonNode error = JSON.readTree(response.body()).path("error");
            String code = error.path("code").asText(null);
            if (!error.path("code").isTextual() || !ERROR_CODES.contains(code) || !error.path("message").isTextual()
                    || (error.has("parameter") && !error.get("parameter").isTextual())) {
                return status + " with an error body outside the contract: " + abbreviate(response.text());
            }
        } catch (IOException e) {
            return status + " with a body that is not JSON: " + abbreviate(response.text());
        }
        return null;
    }

    private static String errorCode(RawHttp.Response response) {
        try {
            return JSON.readTree(response.body()).at("/error/code").asText();
        } catch (IOException e) {
            return "not JSON: " + abbreviate(response.text());
        }
    }

    /** Cursors of real pages (category and whole-catalog, every sort), for the generator to tamper with. */
    private static List<String> harvestCursors() {
        List<String> cursors = new ArrayList<>();
        for (String query : List.of("?limit=2", "?limit=3&sort=-price", "?category=phones&limit=2",
                "?category=tvs&limit=1&sort=-rating", "?brand=acme&limit=1&sort=-updatedAt")) {
            JsonNode page = cluster.instance(0).http().get("/v1/products" + query).json();
            assertThat(page.get("nextCursor").isTextual()).as("a next page of %s", query).isTrue();
            cursors.add(page.get("nextCursor").asText());
        }
        return List.copyOf(cursors);
    }

    private static HttpResponse<String> signed(PeerHeaders signer, ServiceProcess target, PeerRequest request,
                                               Duration budget) throws Exception {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(target.url() + request.pathAndQuery()));
        signer.sign(http, request, new Instance("localhost", 1), budget);
        return HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static int port(ServiceProcess instance) {
        return Integer.parseInt(instance.hostPort().substring("localhost:".length()));
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }
}
