package io.catalogviews.api.listing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.api.routing.RequestTarget;
import io.catalogviews.api.routing.StaleReads;
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
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on real sockets over in-memory fake views: scatter-gather of every listing (a category's as the whole
 * catalog's: each product partition holds every scope of its products), the internal routes and their refusals.
 * Partition of a product: its number modulo 4.
 */
class ListingRoutesHttpTest {

    private static final int PARTITIONS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final PeerHeaders PEERS = new PeerHeaders("test-cluster-secret", null);

    /** Product n: price 1000 - 7n mod 300, in category "c" + (n mod 3) ("c0" .. "c2"). */
    private static final List<Product> CATALOG = new ArrayList<>();

    static {
        for (int n = 0; n < 40; n++) {
            CATALOG.add(new Product("p-" + n, n % PARTITIONS, "c" + (n % 3), 1000 - (7L * n) % 300, "b" + (n % 2)));
        }
    }

    private record Product(String id, int partition, String category, long price, String brand) {
        ListingItem item() {
            return new ListingItem(new Position(SortOrder.PRICE.priceSortValue(price), id),
                    ("{\"id\":\"" + id + "\",\"priceCents\":" + price + "}").getBytes(StandardCharsets.UTF_8));
        }
    }

    private final Map<Integer, Instance> active = new ConcurrentHashMap<>();
    private final List<Javalin> apps = new ArrayList<>();
    private final List<Forwarder> forwarders = new ArrayList<>();
    private Instance a;
    private Instance b;
    private FakeQueries queriesA;
    private FakeQueries queriesB;

    @BeforeEach
    void start() throws IOException {
        // Both ports are held open together so they differ; each is released just before its server binds.
        ServerSocket heldA = new ServerSocket(0);
        ServerSocket heldB = new ServerSocket(0);
        a = new Instance("127.0.0.1", heldA.getLocalPort());
        b = new Instance("127.0.0.1", heldB.getLocalPort());
        queriesA = new FakeQueries(Set.of(0, 1));
        queriesB = new FakeQueries(Set.of(2, 3));
        active.put(0, a);
        active.put(1, a);
        active.put(2, b);
        active.put(3, b);
        heldA.close();
        serve(a, queriesA);
        heldB.close();
        serve(b, queriesB);
    }

    @AfterEach
    void stop() {
        apps.forEach(Javalin::stop);
        forwarders.forEach(Forwarder::close);
    }

    @Test
    void shouldWalkTheWholeCatalogWhenPagingAcrossTwoInstances() throws Exception {
        List<String> walked = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            HttpResponse<String> response = get(a, "/v1/products?limit=7"
                    + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("application/json"));
            assertThat(response.headers().firstValue("X-Served-By"))
                    .hasValue(a.hostPort() + "," + b.hostPort());
            JsonNode body = JSON.readTree(response.body());
            body.get("items").forEach(item -> walked.add(item.get("id").asText()));
            cursor = body.get("nextCursor").isNull() ? null : body.get("nextCursor").asText();
            pages++;
        } while (cursor != null);
        List<String> expected = CATALOG.stream()
                .sorted(Comparator.comparing((Product p) -> p.item().position())).map(Product::id).toList();
        assertThat(walked).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(6);
    }

    @Test
    void shouldWalkEveryMatchWhenScanBudgetsCutPagesOnBothInstances() throws Exception {
        queriesA.budget = 3;
        queriesB.budget = 3;
        for (String scope : List.of("", "&category=c1")) {
            List<String> walked = new ArrayList<>();
            String cursor = null;
            int shortPages = 0;
            do {
                HttpResponse<String> response = get(a, "/v1/products?limit=4&brand=b1" + scope
                        + (cursor == null ? "" : "&cursor=" + cursor));
                assertThat(response.statusCode()).isEqualTo(200);
                JsonNode body = JSON.readTree(response.body());
                body.get("items").forEach(item -> walked.add(item.get("id").asText()));
                cursor = body.get("nextCursor").isNull() ? null : body.get("nextCursor").asText();
                shortPages += cursor != null && body.get("items").size() < 4 ? 1 : 0;
            } while (cursor != null);
            List<String> expected = CATALOG.stream().filter(p -> p.brand().equals("b1"))
                    .filter(p -> scope.isEmpty() || p.category().equals("c1"))
                    .sorted(Comparator.comparing((Product p) -> p.item().position())).map(Product::id).toList();
            assertThat(walked).as("walk of %s", scope).containsExactlyElementsOf(expected);
            assertThat(shortPages).as("pages cut short with a cursor in %s", scope).isPositive();
        }
    }

    @Test
    void shouldAnswerQueryTooBroadNamingTheFilterWhenFacetsExceedTheBudget() throws Exception {
        queriesA.budget = 3;
        queriesB.budget = 3;
        for (String query : List.of("/v1/facets?inStock=true", "/v1/facets?category=c1&inStock=true")) {
            HttpResponse<String> response = get(a, query);
            assertThat(response.statusCode()).as(query).isEqualTo(422);
            assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("query_too_broad");
            assertThat(JSON.readTree(response.body()).at("/error/parameter").asText()).isEqualTo("brand");
        }
        HttpResponse<String> oneBrand = get(b, "/v1/facets?brand=b1&inStock=true");
        assertThat(oneBrand.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(oneBrand.body()).at("/error/parameter").asText()).isEqualTo("minPrice");
        assertThat(get(a, "/v1/facets").statusCode()).as("unfiltered facets come from counters").isEqualTo(200);
    }

    @Test
    void shouldGatherACategoryFromBothInstancesWhenItsProductsLiveInPartitionsOfBoth() throws Exception {
        HttpResponse<String> response = get(a, "/v1/products?category=c1&limit=100");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(a.hostPort() + "," + b.hostPort());
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("items")).hasSize((int) CATALOG.stream().filter(p -> p.category().equals("c1")).count());
        assertThat(body.get("nextCursor").isNull()).isTrue();

        HttpResponse<String> facets = get(a, "/v1/facets?category=c1&brandLimit=1");
        assertThat(facets.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(facets.body()).get("brands")).hasSize(1);
    }

    @Test
    void shouldContinueACategoryCursorWhenAskedOnAnotherInstance() throws Exception {
        JsonNode first = JSON.readTree(get(b, "/v1/products?category=c2&limit=2").body());
        String cursor = first.get("nextCursor").asText();
        HttpResponse<String> second = get(a, "/v1/products?category=c2&limit=2&cursor=" + cursor);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(second.body()).get("items").get(0).get("id").asText())
                .isNotEqualTo(first.get("items").get(1).get("id").asText());
        HttpResponse<String> otherQuery = get(a, "/v1/products?category=c2&sort=-price&cursor=" + cursor);
        assertThat(otherQuery.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(otherQuery.body()).at("/error/parameter").asText()).isEqualTo("cursor");
    }

    @Test
    void shouldMergeFacetsAndCategoriesWhenGatheredFromBothInstances() throws Exception {
        JsonNode facets = JSON.readTree(get(b, "/v1/facets").body());
        assertThat(facets.get("total").asLong()).isEqualTo(CATALOG.size());
        assertThat(facets.at("/brands/0/count").asLong() + facets.at("/brands/1/count").asLong())
                .isEqualTo(CATALOG.size());
        assertThat(facets.at("/price/min").asLong()).isEqualTo(CATALOG.stream().mapToLong(Product::price).min()
                .orElseThrow());

        HttpResponse<String> categories = get(a, "/v1/categories");
        assertThat(categories.statusCode()).isEqualTo(200);
        assertThat(categories.body()).isEqualTo("{\"categories\":[{\"category\":\"c0\",\"count\":14},"
                + "{\"category\":\"c1\",\"count\":13},{\"category\":\"c2\",\"count\":13}]}");
    }

    @Test
    void shouldAnswerUnavailableWhenACalleeRefusesTwice() throws Exception {
        queriesB.hosted = Set.of(3); // metadata still says b holds partition 2, its store no longer does
        HttpResponse<String> response = get(a, "/v1/products");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
        assertThat(JSON.readTree(response.body()).at("/error/code").asText()).isEqualTo("unavailable");
    }

    @Test
    void shouldAnswerFromFreshMetadataWhenACalleeRefusesOnce() throws Exception {
        queriesB.hosted = Set.of(3);
        queriesA.hosted = Set.of(0, 1, 2);
        queriesB.onRefusal = () -> active.put(2, a); // the move shows in metadata right after the refusal
        HttpResponse<String> response = get(a, "/v1/products?limit=200");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).get("items")).hasSize(CATALOG.size());
    }

    @Test
    void shouldRefuseWithoutForwardingWhenASignedForwardedRequestReachesANonOwner() throws Exception {
        assertThat(signedGet(a, RequestTarget.path(ListingRoutes.PRODUCTS_PATH).param("category", "c1"))
                .statusCode()).isEqualTo(503);
        assertThat(signedGet(a, RequestTarget.path(ListingRoutes.PRODUCTS_PATH)).statusCode()).isEqualTo(503);
    }

    @Test
    void shouldGatherAsForClientsWhenTheForwardedHeaderIsNotSigned() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + a.hostPort() + "/v1/products?category=c1"))
                .header("X-Catalog-Forwarded-By", b.hostPort()).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Served-By")).hasValue(a.hostPort() + "," + b.hostPort());
    }

    @Test
    void shouldAskThePeerForTheParsedFilterWhenBrandsHoldCharactersAUriCannotCarry() throws Exception {
        List<String> odd = List.of("a|b", "{x}", "\"q\"", "x^y", "sp ace+plus", "100%", "é/ü?#&=", "b1");
        StringBuilder query = new StringBuilder("/v1/products?category=c1&limit=100&minPrice=0&inStock=true");
        for (String brand : odd) {
            query.append("&brand=").append(URLEncoder.encode(brand, StandardCharsets.UTF_8));
        }

        HttpResponse<String> gathered = get(a, query.toString());
        HttpResponse<String> atPeer = get(b, query.toString());
        HttpResponse<String> facets = get(a, query.toString().replace("/v1/products?", "/v1/facets?")
                .replace("&limit=100", "&brandLimit=5"));

        assertThat(gathered.statusCode()).as(gathered.body()).isEqualTo(200);
        assertThat(gathered.headers().firstValue("X-Served-By")).hasValue(a.hostPort() + "," + b.hostPort());
        assertThat(gathered.body()).isEqualTo(atPeer.body());
        assertThat(JSON.readTree(gathered.body()).get("items")).hasSize((int) CATALOG.stream()
                .filter(p -> p.category().equals("c1") && p.brand().equals("b1")).count());
        assertThat(facets.statusCode()).as(facets.body()).isEqualTo(200);
        assertThat(queriesB.filters).as("the peer was asked for exactly the parsed filter, every time")
                .allSatisfy(filter -> assertThat(filter.brands()).containsExactlyInAnyOrderElementsOf(odd))
                .hasSize(3);
    }

    @Test
    void shouldAcceptFreshOnTheCategoryListWhereItChangesNothing() throws Exception {
        HttpResponse<String> fresh = get(a, "/v1/categories?fresh=true");
        assertThat(fresh.statusCode()).isEqualTo(200);
        assertThat(fresh.body()).isEqualTo(get(a, "/v1/categories").body());
        assertThat(get(a, "/v1/categories?fresh=false").statusCode()).isEqualTo(200);
        HttpResponse<String> bad = get(a, "/v1/categories?fresh=maybe");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).at("/error/parameter").asText()).isEqualTo("fresh");
    }

    @Test
    void shouldAnswerBadRequestWhenAnInternalRouteGetsGarbage() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + a.hostPort()
                + ListingRoutes.INTERNAL_CATALOG_PAGE_PATH)).POST(HttpRequest.BodyPublishers.ofString("garbage"))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).at("/error/parameter").asText()).isEqualTo("body");
    }

    @Test
    void shouldNameTheParameterWhenAListingParameterIsInvalid() throws Exception {
        HttpResponse<String> response = get(b, "/v1/products?limit=0");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).at("/error/parameter").asText()).isEqualTo("limit");
        assertThat(get(b, "/v1/categories?x=1").statusCode()).isEqualTo(400);
    }

    // ---------------------------------------------------------------- fixtures

    private void serve(Instance self, FakeQueries queries) {
        KeyOwners owners = new KeyOwners() {
            @Override
            public Instance self() {
                return self;
            }

            @Override
            public Ownership ownerOfProduct(String productId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Map<Integer, Instance> activeOwners(String storeName) {
                return new HashMap<>(active);
            }

            @Override
            public int partitions() {
                return PARTITIONS;
            }
        };
        Forwarder forwarder = new Forwarder(self, Duration.ofSeconds(2), 2, PEERS);
        forwarders.add(forwarder);
        StaleReads stale = new StaleReads(self, 1);
        FanOutRouter fanOut = new FanOutRouter(self, forwarder, stale, Duration.ofSeconds(5));
        ListingRoutes routes = new ListingRoutes(owners, queries, new CursorCodec("test-app"), fanOut);
        ListingInternalRoutes internal = new ListingInternalRoutes(owners, queries, fanOut);
        Javalin app = Javalin.create(cfg -> {
            cfg.jetty.port = self.port();
            cfg.startup.showJavalinBanner = false;
            cfg.routes.before(PEERS::verify);
            cfg.routes.get(ListingRoutes.PRODUCTS_PATH, routes::products);
            cfg.routes.get(ListingRoutes.FACETS_PATH, routes::facets);
            cfg.routes.get(ListingRoutes.CATEGORIES_PATH, routes::categories);
            cfg.routes.post(ListingRoutes.INTERNAL_CATALOG_PAGE_PATH, internal::catalogPage);
            cfg.routes.post(ListingRoutes.INTERNAL_CATALOG_FACETS_PATH, internal::catalogFacets);
            cfg.routes.post(ListingRoutes.INTERNAL_CATEGORIES_PATH, internal::categories);
            cfg.routes.exception(ApiException.class, (e, ctx) -> Responses.error(ctx, e));
        });
        app.start();
        apps.add(app);
    }

    /** A GET as another instance ({@code b}) forwards it, signed. */
    private HttpResponse<String> signedGet(Instance target, RequestTarget pathAndQuery) throws Exception {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create("http://" + target.hostPort()
                + pathAndQuery.encoded()));
        PEERS.sign(http, PeerRequest.get(pathAndQuery), b, Duration.ofSeconds(2));
        return HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(Instance target, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + target.hostPort() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Views of the products whose partition is hosted; sort price only. */
    private static final class FakeQueries implements ListingQueries {
        volatile Set<Integer> hosted;
        /** The filters of the category reads asked of these stores. */
        final List<ListingFilter> filters = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile Runnable onRefusal = () -> { };
        volatile int budget = Integer.MAX_VALUE;

        FakeQueries(Set<Integer> hosted) {
            this.hosted = hosted;
        }

        private <T> ListingResult<T> refuse() {
            onRefusal.run();
            return new ListingResult.Failed<>(QueryFailure.notHostedHere("not here"));
        }

        /** Products of the scope examined in listing order, at most {@link #budget} of them, as the engine does. */
        private ListingPage page(List<Product> products, ListingQuery query) {
            String category = query.filter().category();
            List<Product> scope = products.stream().filter(p -> category == null || category.equals(p.category()))
                    .filter(p -> query.after() == null || p.item().position().compareTo(query.after()) > 0)
                    .sorted(Comparator.comparing((Product p) -> p.item().position())).toList();
            List<ListingItem> items = new ArrayList<>();
            int examined = 0;
            for (Product p : scope) {
                if (examined == budget) {
                    return new ListingPage(items, false, scope.get(examined - 1).item().position());
                }
                examined++;
                if (matches(p, query.filter())) {
                    if (items.size() == query.limit()) {
                        return new ListingPage(items, true);
                    }
                    items.add(p.item());
                }
            }
            return new ListingPage(items, false);
        }

        private static boolean matches(Product p, ListingFilter f) {
            return (f.category() == null || f.category().equals(p.category()))
                    && (f.brands().isEmpty() || f.brands().contains(p.brand())) && f.accepts(p.price(), true);
        }

        private FacetCounts facets(List<Product> products, ListingFilter filter) {
            if (!filter.isUnfiltered() && products.stream().filter(p -> matches(p, filter)).count() > budget) {
                return FacetCounts.OVER_BUDGET;
            }
            FacetCounts out = FacetCounts.EMPTY;
            for (Product p : products) {
                if (matches(p, filter)) {
                    out = out.merge(new FacetCounts(1, 1, Map.of(p.brand(), 1L), p.price(), p.price()));
                }
            }
            return out;
        }

        @Override
        public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
            if (query.filter().category() != null) {
                filters.add(query.filter());
            }
            if (!hosted.containsAll(partitions)) {
                return refuse();
            }
            return new ListingResult.Ok<>(page(CATALOG.stream().filter(p -> partitions.contains(p.partition()))
                    .toList(), query));
        }

        @Override
        public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
            if (filter.category() != null) {
                filters.add(filter);
            }
            if (!hosted.containsAll(partitions)) {
                return refuse();
            }
            return new ListingResult.Ok<>(facets(CATALOG.stream().filter(p -> partitions.contains(p.partition()))
                    .toList(), filter));
        }

        @Override
        public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
            if (!hosted.containsAll(partitions)) {
                return refuse();
            }
            Map<String, Long> counts = new TreeMap<>();
            CATALOG.stream().filter(p -> partitions.contains(p.partition()))
                    .forEach(p -> counts.merge(p.category(), 1L, Long::sum));
            List<CategoryCount> out = new ArrayList<>();
            counts.forEach((c, n) -> out.add(new CategoryCount(c, n)));
            return new ListingResult.Ok<>(out);
        }
    }
}
