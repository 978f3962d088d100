package io.catalogviews.api.http;

import io.catalogviews.api.ApiServer;
import io.catalogviews.api.ApiSettings;
import io.catalogviews.api.ViewAccess;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.testing.OwnedHere;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.listing.Position;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same views behind two real servers, one answering plain reads ahead of the routes ({@link DirectAnswers}), one
 * with it off: every request must get the same answer from both, and only the first may skip the routes.
 */
class DirectAnswersHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Facets kept for these categories; any other category is counted by the route. */
    private static final Set<String> KEPT = Set.of("kept", "also-kept");

    private final List<ApiServer> servers = new ArrayList<>();
    private FakeListings withAnswers;
    private FakeListings without;
    private final FakeProducts productsOn = new FakeProducts();
    private final FakeProducts productsOff = new FakeProducts();
    private Instance on;
    private Instance off;

    @BeforeEach
    void start() throws IOException {
        withAnswers = new FakeListings();
        without = new FakeListings();
        on = serve(withAnswers, productsOn, true);
        off = serve(without, productsOff, false);
    }

    @AfterEach
    void stop() {
        servers.forEach(ApiServer::close);
    }

    @Test
    void shouldAnswerKeptFacetsWithoutTheRouteWhenTheyAreKeptHere() throws Exception {
        HttpResponse<String> fast = get(on, "/v1/facets?category=kept&brandLimit=2", Map.of());
        HttpResponse<String> routed = get(off, "/v1/facets?category=kept&brandLimit=2", Map.of());

        assertDirectAnswerAsRouted(fast, routed);
        assertThat(fast.body()).contains("\"b0\"").doesNotContain("\"b2\"");
        assertThat(withAnswers.routed.get()).as("facets the route read on the server answering directly").isZero();
        assertThat(without.routed.get()).as("facets the route read with direct answers off").isEqualTo(1);
    }

    @Test
    void shouldWalkAKeptCategoryWithTheRoutesCursorsWhenPagesAreAnsweredFromMemory() throws Exception {
        List<String> walkedFast = walk(on, "kept");
        List<String> walkedRouted = walk(off, "kept");

        assertThat(walkedFast).isEqualTo(walkedRouted).hasSize(FakeListings.ITEMS);
        assertThat(withAnswers.routedPages.get()).as("pages the route read on the server answering directly")
                .isZero();
        assertThat(without.routedPages.get()).as("pages the route read with direct answers off").isEqualTo(4);
        // A cursor one server signed is the other's too (the same secret): each answers it as the route would.
        HttpResponse<String> first = get(off, "/v1/products?category=kept&limit=3", Map.of());
        String cursor = first.body().replaceAll(".*\"nextCursor\":\"([^\"]+)\".*", "$1");
        assertSameAnswer(get(on, "/v1/products?category=kept&limit=3&cursor=" + cursor, Map.of()),
                get(off, "/v1/products?category=kept&limit=3&cursor=" + cursor, Map.of()));
        assertThat(withAnswers.routedPages.get()).isZero();
    }

    @Test
    void shouldAnswerAProductWithItsEtagWithoutTheRouteWhenItIsFoundHere() throws Exception {
        HttpResponse<String> direct = get(on, "/v1/products/p-3", Map.of());
        HttpResponse<String> routed = get(off, "/v1/products/p-3", Map.of());

        assertDirectAnswerAsRouted(direct, routed);
        assertThat(direct.headers().firstValue("ETag")).hasValue("\"3\"").isEqualTo(routed.headers().firstValue("ETag"));
        assertThat(productsOn.readByRoute.get()).as("reads made by the route with direct answers on").isZero();
        assertThat(productsOff.readByRoute.get()).as("reads made by the route with direct answers off").isEqualTo(1);
    }

    @Test
    void shouldLeaveProductReadsToTheRouteWhenTheyAreNotPlainFoundReads() throws Exception {
        List<String> targets = List.of(
                "/v1/products/p-gone",                      // deleted: 404
                "/v1/products/p-none",                      // absent: 404
                "/v1/products/p-3?minVersion=4&waitMs=0",   // 409: version not reached
                "/v1/products/p-3?minVersion=2",
                "/v1/products/p-3?fresh=maybe",             // 400 naming fresh
                "/v1/products/p%2D3",
                "/v1/products/p-3/",
                "/v1/products/bad id",
                "/v1/products/" + "x".repeat(300));
        for (String target : targets) {
            assertSameAnswer(get(on, target.replace(" ", "%20"), Map.of()),
                    get(off, target.replace(" ", "%20"), Map.of()));
        }
        assertThat(productsOn.readByRoute.get()).as("reads the route made with direct answers on")
                .isEqualTo(productsOff.readByRoute.get()).isPositive();

        HttpResponse<String> notModified = get(on, "/v1/products/p-3", Map.of("If-None-Match", "\"3\""));
        assertThat(notModified.statusCode()).isEqualTo(304);
        assertThat(productsOn.readByRoute.get()).isEqualTo(productsOff.readByRoute.get() + 1);
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
                "/v1/products?category=kept&limit=500",     // 400 naming limit
                "/v1/products?category=kept&cursor=forged", // 400 naming cursor
                "/v1/products?category=counted&limit=4",    // not kept: the route reads it
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
        String[] names = {"category", "brand", "minPrice", "maxPrice", "inStock", "brandLimit", "fresh", "x", "",
            "limit", "sort", "cursor", "minVersion", "waitMs"};
        String[] values = {"kept", "also-kept", "counted", "b0", "b1", "10", "-1", "99999999999999999999", "true",
                "false", "", "%20", "+", "a%2Cb", "ke pt", "\u00e9", "0", "3", "price", "-price", "-updatedAt"};
        for (int i = 0; i < 200; i++) {
            StringBuilder query = new StringBuilder();
            int parts = random.nextInt(5);
            for (int p = 0; p < parts; p++) {
                query.append(p == 0 ? "" : random.nextInt(10) == 0 ? "&&" : "&");
                query.append(names[random.nextInt(names.length)]);
                if (random.nextInt(8) != 0) {
                    query.append(random.nextInt(12) == 0 ? "==" : "=").append(values[random.nextInt(values.length)]);
                }
            }
            String[] paths = {"/v1/facets?", "/v1/products?", "/v1/products/p-3?", "/v1/products/p-gone?"};
            String target = paths[i % paths.length] + query.toString().replace(" ", "%20").replace("\u00e9", "%C3%A9");
            assertThat(sameAnswer(get(on, target, Map.of()), get(off, target, Map.of())))
                    .as("the same answer to %s (seed %d, case %d)", target, seed, i).isTrue();
        }
        assertThat(withAnswers.routed.get() + withAnswers.routedPages.get() + productsOn.readByRoute.get())
                .as("reads the routes made with direct answers on (some queries were answered directly)")
                .isLessThan(without.routed.get() + without.routedPages.get() + productsOff.readByRoute.get());
    }

    @Test
    void shouldParseOnlyPlainQueriesWhenDecodingWouldChangeNothing() {
        assertThat(DirectAnswers.plainQuery("category=kept&brand=a&brand=b"))
                .isEqualTo(Map.of("category", List.of("kept"), "brand", List.of("a", "b")));
        assertThat(DirectAnswers.plainQuery("")).isEmpty();
        assertThat(DirectAnswers.plainQuery(null)).isEmpty();
        assertThat(DirectAnswers.plainQuery("minPrice=")).isEqualTo(Map.of("minPrice", List.of("")));
        for (String notPlain : List.of("a=%41", "a=b+c", "a", "=b", "a=b&", "&a=b", "a=b&&c=d", "a==b", "a=b=c",
                "a=\u00e9", "a=b;c", "a=" + "x".repeat(3000))) {
            assertThat(DirectAnswers.plainQuery(notPlain)).as(notPlain).isNull();
        }
    }

    // ---------------------------------------------------------------- fixtures

    /** Every id of {@code category}, page by page (3 a page) with the cursors the server writes. */
    private static List<String> walk(Instance server, String category) throws Exception {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            HttpResponse<String> page = get(server, "/v1/products?category=" + category + "&limit=3"
                    + (cursor == null ? "" : "&cursor=" + cursor), Map.of());
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            java.util.regex.Matcher id = java.util.regex.Pattern.compile("\"id\":\"([^\"]+)\"").matcher(page.body());
            while (id.find()) {
                ids.add(id.group(1));
            }
            java.util.regex.Matcher next = java.util.regex.Pattern.compile("\"nextCursor\":\"([^\"]+)\"")
                    .matcher(page.body());
            cursor = next.find() ? next.group(1) : null;
        } while (cursor != null);
        return ids;
    }

    private static void assertSameAnswer(HttpResponse<String> a, HttpResponse<String> b) {
        assertThat(a.statusCode()).as("status of " + a.uri()).isEqualTo(b.statusCode());
        assertThat(a.body()).as("body of " + a.uri()).isEqualTo(b.body());
        assertThat(a.headers().firstValue("Content-Type")).as("Content-Type of " + a.uri())
                .isEqualTo(b.headers().firstValue("Content-Type"));
    }

    /** A 200 from the server answering directly, as the routes of the other wrote it, served by itself. */
    private void assertDirectAnswerAsRouted(HttpResponse<String> direct, HttpResponse<String> routed) {
        assertSameAnswer(direct, routed);
        assertThat(headerNames(direct)).isEqualTo(headerNames(routed));
        assertThat(direct.statusCode()).isEqualTo(200);
        assertThat(direct.headers().firstValue("X-Served-By")).hasValue(on.hostPort());
    }

    private static Set<String> headerNames(HttpResponse<String> response) {
        return new java.util.TreeSet<>(response.headers().map().keySet().stream().map(String::toLowerCase).toList());
    }

    private static boolean sameAnswer(HttpResponse<String> a, HttpResponse<String> b) {
        return a.statusCode() == b.statusCode() && a.body().equals(b.body())
                && a.headers().firstValue("Content-Type").equals(b.headers().firstValue("Content-Type"));
    }

    private Instance serve(FakeListings listings, FakeProducts products, boolean directAnswers) throws IOException {
        Instance self;
        try (ServerSocket held = new ServerSocket(0)) {
            self = new Instance("127.0.0.1", held.getLocalPort());
        }
        KeyOwners owners = new OwnedHere(self);
        servers.add(ApiServer.start(ApiSettings.defaults(self.port()).withDirectAnswers(directAnswers),
                new ViewAccess(owners, products, listings, unsupported(ClusterView.class)),
                new CursorCodec("test"), new PeerHeaders("test-cluster-secret-0001", null), () -> true));
        return self;
    }

    /**
     * Facets of three brands and {@link #ITEMS} products by price for every category; kept (one object per query) for
     * {@link #KEPT}.
     */
    private static final class FakeListings implements ListingQueries {
        static final int ITEMS = 10;
        final AtomicInteger routed = new AtomicInteger();
        final AtomicInteger routedPages = new AtomicInteger();
        private final Map<String, FacetCounts> kept = new java.util.concurrent.ConcurrentHashMap<>();
        private final Map<ListingQuery, ListingPage> keptPages = new java.util.concurrent.ConcurrentHashMap<>();

        private static ListingPage page(ListingQuery query) {
            List<ListingItem> items = new ArrayList<>();
            for (int n = 0; n < ITEMS; n++) {
                String id = "p-" + n;
                Position position = new Position(SortOrder.PRICE.priceSortValue(100L + n), id);
                if (query.after() == null || position.compareTo(query.after()) > 0) {
                    items.add(new ListingItem(position, ("{\"id\":\"" + id + "\",\"priceCents\":" + (100 + n) + "}")
                            .getBytes(StandardCharsets.UTF_8)));
                }
            }
            boolean more = items.size() > query.limit();
            return new ListingPage(more ? items.subList(0, query.limit()) : items, more);
        }

        @Override
        public ListingPage keptCategoryPage(ListingQuery query) {
            return KEPT.contains(query.filter().category()) ? keptPages.computeIfAbsent(query, FakeListings::page)
                    : null;
        }

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

        /** A category's facets are counted over the partitions: by the route, when not answered from memory. */
        @Override
        public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
            if (filter.category() != null) {
                routed.incrementAndGet();
            }
            return new ListingResult.Ok<>(counted(filter));
        }

        @Override
        public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
            if (query.filter().category() != null) {
                routedPages.incrementAndGet();
            }
            return new ListingResult.Ok<>(page(query));
        }

        @Override
        public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
            return new ListingResult.Ok<>(List.of());
        }
    }

    /** Products p-0 .. p-9 at version n; p-gone deleted; counts the reads made from inside Javalin's routes. */
    private static final class FakeProducts implements ProductQueries {
        final AtomicInteger readByRoute = new AtomicInteger();

        @Override
        public ProductLookup get(String id) {
            if (java.util.Arrays.stream(Thread.currentThread().getStackTrace())
                    .anyMatch(frame -> frame.getClassName().startsWith("io.javalin."))) {
                readByRoute.incrementAndGet();
            }
            if (id.equals("p-gone")) {
                return new ProductLookup.Deleted(7);
            }
            if (id.matches("p-[0-9]")) {
                int n = id.charAt(2) - '0';
                return new ProductLookup.Found(n, ("{\"id\":\"" + id + "\",\"version\":" + n + "}")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return ProductLookup.ABSENT;
        }

        @Override
        public List<ProductLookup> getAll(List<String> ids) {
            return ids.stream().map(this::get).toList();
        }

        @Override
        public ReplicaRead getFromAnyReplica(String id) {
            return new ReplicaRead(get(id), 0);
        }

        @Override
        public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
            return new ReplicaBatch(getAll(ids), 0);
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
