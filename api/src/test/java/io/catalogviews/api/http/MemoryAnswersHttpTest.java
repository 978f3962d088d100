package io.catalogviews.api.http;

import io.catalogviews.api.ApiServer;
import io.catalogviews.api.ApiSettings;
import io.catalogviews.api.ViewAccess;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same views behind two real servers, one answering kept facets ahead of the routes ({@link MemoryAnswers}),
 * one with it off: every request must get the same answer from both, and only the first may skip the route.
 */
class MemoryAnswersHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Facets kept for these categories; any other category is counted by the route. */
    private static final Set<String> KEPT = Set.of("kept", "also-kept");

    private final List<ApiServer> servers = new ArrayList<>();
    private FakeListings withAnswers;
    private FakeListings without;
    private Instance on;
    private Instance off;

    @BeforeEach
    void start() throws IOException {
        withAnswers = new FakeListings();
        without = new FakeListings();
        on = serve(withAnswers, true);
        off = serve(without, false);
    }

    @AfterEach
    void stop() {
        servers.forEach(ApiServer::close);
    }

    @Test
    void shouldAnswerKeptFacetsWithoutTheRouteWhenTheyAreKeptHere() throws Exception {
        HttpResponse<String> fast = get(on, "/v1/facets?category=kept&brandLimit=2", Map.of());
        HttpResponse<String> routed = get(off, "/v1/facets?category=kept&brandLimit=2", Map.of());

        assertSameAnswer(fast, routed);
        assertThat(fast.statusCode()).isEqualTo(200);
        assertThat(fast.body()).contains("\"b0\"").doesNotContain("\"b2\"");
        assertThat(fast.headers().firstValue("X-Served-By")).hasValue(on.hostPort());
        assertThat(fast.headers().firstValue("Content-Type")).hasValue(routed.headers().firstValue("Content-Type")
                .orElseThrow());
        assertThat(withAnswers.routed.get()).as("facets the route read on the server answering from memory").isZero();
        assertThat(without.routed.get()).as("facets the route read with memory answers off").isEqualTo(1);
    }

    @Test
    void shouldLeaveEveryOtherRequestToTheRoutesWhenItCannotBeAnsweredFromMemory() throws Exception {
        List<String> targets = List.of(
                "/v1/facets?category=counted",              // not kept: the route counts it
                "/v1/facets?category=k%65pt",               // encoded: the route decodes it
                "/v1/facets?category=kept&brandLimit=0",    // 400 naming brandLimit
                "/v1/facets?category=kept&colour=red",      // 400 naming colour
                "/v1/facets",                               // whole catalog: not kept here
                "/v1/facets/?category=kept",
                "/v1/facetsx?category=kept",                // no such route
                "/health/live");
        for (String target : targets) {
            assertSameAnswer(get(on, target, Map.of()), get(off, target, Map.of()));
        }
        HttpResponse<String> badParameter = get(on, "/v1/facets?category=kept&brandLimit=0", Map.of());
        assertThat(badParameter.statusCode()).isEqualTo(400);
        assertThat(badParameter.body()).contains("brandLimit");

        // A peer's header (unsigned here, so ignored by the route) sends the request to the route.
        int before = withAnswers.routed.get();
        assertSameAnswer(get(on, "/v1/facets?category=kept", Map.of("X-Catalog-Deadline", "1")),
                get(off, "/v1/facets?category=kept", Map.of("X-Catalog-Deadline", "1")));
        assertThat(withAnswers.routed.get()).isEqualTo(before + 1);
    }

    @Test
    void shouldAnswerAsTheRoutesDoWhenQueriesAreRandom() throws Exception {
        long seed = 20261205L;
        Random random = new Random(seed);
        String[] names = {"category", "brand", "minPrice", "maxPrice", "inStock", "brandLimit", "fresh", "x", ""};
        String[] values = {"kept", "also-kept", "counted", "b0", "b1", "10", "-1", "99999999999999999999", "true",
                "false", "", "%20", "+", "a%2Cb", "ke pt", "\u00e9", "0"};
        for (int i = 0; i < 150; i++) {
            StringBuilder query = new StringBuilder();
            int parts = random.nextInt(5);
            for (int p = 0; p < parts; p++) {
                query.append(p == 0 ? "" : random.nextInt(10) == 0 ? "&&" : "&");
                query.append(names[random.nextInt(names.length)]);
                if (random.nextInt(8) != 0) {
                    query.append(random.nextInt(12) == 0 ? "==" : "=").append(values[random.nextInt(values.length)]);
                }
            }
            String target = "/v1/facets?" + query.toString().replace(" ", "%20").replace("\u00e9", "%C3%A9");
            assertThat(sameAnswer(get(on, target, Map.of()), get(off, target, Map.of())))
                    .as("the same answer to %s (seed %d, case %d)", target, seed, i).isTrue();
        }
        assertThat(withAnswers.routed.get()).as("requests the route answered").isLessThan(150);
    }

    @Test
    void shouldParseOnlyPlainQueriesWhenDecodingWouldChangeNothing() {
        assertThat(MemoryAnswers.plainQuery("category=kept&brand=a&brand=b"))
                .isEqualTo(Map.of("category", List.of("kept"), "brand", List.of("a", "b")));
        assertThat(MemoryAnswers.plainQuery("")).isEmpty();
        assertThat(MemoryAnswers.plainQuery(null)).isEmpty();
        assertThat(MemoryAnswers.plainQuery("minPrice=")).isEqualTo(Map.of("minPrice", List.of("")));
        for (String notPlain : List.of("a=%41", "a=b+c", "a", "=b", "a=b&", "&a=b", "a=b&&c=d", "a==b", "a=b=c",
                "a=\u00e9", "a=b;c", "a=" + "x".repeat(3000))) {
            assertThat(MemoryAnswers.plainQuery(notPlain)).as(notPlain).isNull();
        }
    }

    // ---------------------------------------------------------------- fixtures

    private static void assertSameAnswer(HttpResponse<String> a, HttpResponse<String> b) {
        assertThat(a.statusCode()).as("status of " + a.uri()).isEqualTo(b.statusCode());
        assertThat(a.body()).as("body of " + a.uri()).isEqualTo(b.body());
        assertThat(a.headers().firstValue("Content-Type")).as("Content-Type of " + a.uri())
                .isEqualTo(b.headers().firstValue("Content-Type"));
    }

    private static boolean sameAnswer(HttpResponse<String> a, HttpResponse<String> b) {
        return a.statusCode() == b.statusCode() && a.body().equals(b.body())
                && a.headers().firstValue("Content-Type").equals(b.headers().firstValue("Content-Type"));
    }

    private Instance serve(FakeListings listings, boolean memoryAnswers) throws IOException {
        Instance self;
        try (ServerSocket held = new ServerSocket(0)) {
            self = new Instance("127.0.0.1", held.getLocalPort());
        }
        KeyOwners owners = new KeyOwners() {
            @Override
            public Instance self() {
                return self;
            }

            @Override
            public Ownership ownerOfProduct(String productId) {
                return new Ownership(0, Optional.of(self), List.of());
            }

            @Override
            public Ownership ownerOfCategory(String category) {
                return new Ownership(0, Optional.of(self), List.of());
            }

            @Override
            public Map<Integer, Instance> activeOwners(String storeName) {
                return Map.of(0, self);
            }

            @Override
            public int partitions() {
                return 1;
            }
        };
        servers.add(ApiServer.start(ApiSettings.defaults(self.port()).withMemoryAnswers(memoryAnswers),
                new ViewAccess(owners, unsupported(ProductQueries.class), listings, unsupported(ClusterView.class)),
                new CursorCodec("test"), new PeerHeaders("test-cluster-secret-0001", null), () -> true));
        return self;
    }

    /** Facets of three brands for every category; kept (one object per category) for {@link #KEPT}. */
    private static final class FakeListings implements ListingQueries {
        final AtomicInteger routed = new AtomicInteger();
        private final Map<String, FacetCounts> kept = new java.util.concurrent.ConcurrentHashMap<>();

        private static FacetCounts counted(ListingFilter filter) {
            Map<String, Long> brands = new TreeMap<>(Map.of("b0", 5L, "b1", 3L, "b2", 1L));
            return new FacetCounts(9, 4, brands, 100L, filter.category() == null ? 900L : 500L);
        }

        @Override
        public FacetCounts keptCategoryFacets(ListingFilter filter) {
            if (!KEPT.contains(filter.category())) {
                return null;
            }
            return kept.computeIfAbsent(filter.category() + filter, k -> counted(filter));
        }

        @Override
        public ListingResult<FacetCounts> categoryFacets(ListingFilter filter) {
            routed.incrementAndGet();
            return new ListingResult.Ok<>(counted(filter));
        }

        @Override
        public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
            return new ListingResult.Ok<>(counted(filter));
        }

        @Override
        public ListingResult<ListingPage> categoryPage(ListingQuery query) {
            throw new UnsupportedOperationException("not used here");
        }

        @Override
        public ReplicaRead<ListingPage> categoryPageFromAnyReplica(ListingQuery query) {
            throw new UnsupportedOperationException("not used here");
        }

        @Override
        public ReplicaRead<FacetCounts> categoryFacetsFromAnyReplica(ListingFilter filter) {
            return new ReplicaRead<>(categoryFacets(filter), 0);
        }

        @Override
        public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
            throw new UnsupportedOperationException("not used here");
        }

        @Override
        public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
            return new ListingResult.Ok<>(List.of());
        }
    }

    private static HttpResponse<String> get(Instance target, String pathAndQuery, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + pathAndQuery))
                .timeout(Duration.ofSeconds(10));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static <T> T unsupported(Class<T> type) {
        return (T) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName() + " is not used here");
                });
    }
}
