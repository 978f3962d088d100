package io.catalogviews.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The model-based listing test against a real broker and two instances of the executable jar (each its own JVM):
 * a seeded history in both encodings is published through Kafka, and once both instances serve its final state,
 * random queries over HTTP ({@code GET /v1/products} with every listing parameter) are walked to the end through
 * their cursors, each page sent to one of the two instances at random, and must equal {@link CatalogModel}
 * exactly; so must {@code GET /v1/facets} and {@code GET /v1/categories} on both instances.
 */
@Tag("integration")
@Timeout(600)
class ListingModelTwoInstancesIT {

    private static final int PARTITIONS = 6;
    private static final long SEED = 20261130L;
    private static final int PRODUCTS = 150;
    private static final int EVENTS = 600;
    private static final int QUERIES = 150;
    private static final int FACET_FILTERS = 40;

    private static CatalogCluster cluster;
    private static ServiceProcess first;
    private static ServiceProcess second;
    private static CatalogModel model;
    private static final SplittableRandom PICK = new SplittableRandom(SEED + 1);
    /** Every instance named by X-Served-By on a listing page. */
    private static final Set<String> SERVED_BY = new java.util.TreeSet<>();

    @BeforeAll
    static void startTwoInstancesAndPublishTheHistory() {
        cluster = CatalogCluster.start("listing-model-it", 2, PARTITIONS, 0);
        first = cluster.instances().get(0);
        second = cluster.instances().get(1);
        model = cluster.publish(HistoryGenerator.generate(SEED, PRODUCTS, EVENTS));

        awaitEveryProductsLatestState();
        await().alias("GET /v1/categories equals the model on both instances")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(categoriesOf(first)).as("categories of %s", first.hostPort())
                            .containsExactlyElementsOf(modelCategories());
                    assertThat(categoriesOf(second)).as("categories of %s", second.hostPort())
                            .containsExactlyElementsOf(modelCategories());
                });
        // Wait until every category listing (and the whole catalog) lists the model's products in their latest JSON
        // on both instances, so that the queries below are exact.
        await().alias("every category listing and the whole catalog hold the model's products, in their latest JSON")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> assertThat(unconvergedListings()).isEmpty());
    }

    /** What the unfiltered listing of each category and of the whole catalog still lacks, if anything. */
    private static List<String> unconvergedListings() {
        List<String> scopes = new ArrayList<>(HistoryGenerator.CATEGORIES);
        scopes.add(null);
        List<String> problems = new ArrayList<>();
        for (String scope : scopes) {
            QueryGenerator.Query q = new QueryGenerator.Query(CatalogModel.Filter.category(scope),
                    CatalogModel.Sort.PRICE, 200);
            String mismatch = mismatch(q, walk(q, () -> 200));
            if (mismatch != null) {
                problems.add(q + ": " + mismatch);
            }
        }
        return problems;
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldReturnTheModelsListingOnFullCursorWalksWhenPagesGoToEitherInstanceAtRandom() {
        QueryGenerator queries = new QueryGenerator(SEED * 31 + 1);
        long pages = 0;
        long items = 0;
        long nonEmpty = 0;
        List<String> problems = new ArrayList<>();

        for (int i = 0; i < QUERIES; i++) {
            QueryGenerator.Query q = queries.next();
            boolean varyLimit = i % 5 == 4;
            Walk walk = walk(q, varyLimit ? queries::nextLimit : q::limit);
            String mismatch = mismatch(q, walk);
            if (mismatch != null) {
                problems.add("query " + i + ": " + q + (varyLimit ? " (varying limits)" : "") + ": " + mismatch);
            }
            pages += walk.pages;
            items += walk.items.size();
            nonEmpty += walk.items.isEmpty() ? 0 : 1;
        }
        System.out.printf("ListingModelTwoInstancesIT: %d queries, %d pages over HTTP, %d items compared%n",
                QUERIES, pages, items);

        assertThat(problems).as("HTTP cursor walks vs model").isEmpty();
        assertThat(nonEmpty).isGreaterThan(QUERIES / 3);
        assertThat(SERVED_BY).as("instances whose stores answered listing pages")
                .contains(first.hostPort(), second.hostPort());
    }

    @Test
    void shouldReturnTheModelsFacetsOnBothInstancesWhenFiltersAreRandomOrAbsent() {
        List<CatalogModel.Filter> filters = new ArrayList<>();
        filters.add(CatalogModel.Filter.category(null));
        HistoryGenerator.CATEGORIES.forEach(c -> filters.add(CatalogModel.Filter.category(c)));
        filters.add(CatalogModel.Filter.category(QueryGenerator.UNKNOWN_CATEGORIES.get(0)));
        QueryGenerator generator = new QueryGenerator(SEED * 17 + 3);
        for (int i = 0; i < FACET_FILTERS; i++) {
            filters.add(generator.nextFilter());
        }
        List<String> problems = new ArrayList<>();

        for (CatalogModel.Filter f : filters) {
            int brandLimit = generator.nextBrandLimit();
            String expected = CatalogCluster.facetsText(model.facets(f, brandLimit));
            for (ServiceProcess instance : List.of(first, second)) {
                List<String> params = filterParams(f);
                params.add("brandLimit=" + brandLimit);
                String path = "/v1/facets" + CatalogCluster.query(params);
                HttpTestClient.Answer answer = instance.http().get(path);
                String actual = answer.status() == 200 ? CatalogCluster.facetsText(answer.json())
                        : answer.status() + " " + answer.body();
                if (!expected.equals(actual)) {
                    problems.add(instance.hostPort() + " GET " + path + "\n   expected " + expected
                            + "\n   but was  " + actual);
                }
            }
        }
        System.out.printf("ListingModelTwoInstancesIT: %d facet queries on each of 2 instances%n", filters.size());

        assertThat(problems).as("GET /v1/facets vs model").isEmpty();
    }

    @Test
    void shouldReturnTheModelsCategoriesOnBothInstancesWhenAsked() {
        assertThat(categoriesOf(first)).containsExactlyElementsOf(modelCategories());
        assertThat(categoriesOf(second)).containsExactlyElementsOf(modelCategories());
    }

    // ---------------------------------------------------------------- waiting for the history

    /**
     * Every remembered product answers its final state: live ones 200 at their latest version (minVersion with a
     * wait), deleted ones 404 (at once for a version they were deleted at or after; a tombstoned product is live
     * at that version until its tombstone is applied, hence the polling).
     */
    private static void awaitEveryProductsLatestState() {
        Set<String> pending = new LinkedHashSet<>(model.rememberedIds());
        await().alias("every product's latest state is visible (" + pending.size() + " ids)")
                .atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> {
                    pending.removeIf(ListingModelTwoInstancesIT::settled);
                    return pending.isEmpty();
                });
        List<String> problems = new ArrayList<>();
        for (String id : model.rememberedIds()) {
            HttpTestClient.Answer answer = instance().http().get("/v1/products/" + id);
            ModelProduct expected = model.product(id).orElse(null);
            if (expected == null) {
                if (answer.status() != 404) {
                    problems.add(id + ": expected 404 but was " + answer.status() + " " + answer.body());
                }
            } else {
                String diff = answer.status() == 200 ? ProductJsonCheck.difference(expected, answer.body())
                        : id + ": expected 200 but was " + answer.status() + " " + answer.body();
                if (diff != null) {
                    problems.add(diff);
                }
            }
        }
        assertThat(problems).as("GET /v1/products/{id} vs model").isEmpty();
    }

    private static boolean settled(String id) {
        long version = model.rememberedVersion(id);
        HttpTestClient.Answer answer = instance().http()
                .get("/v1/products/" + id + "?minVersion=" + version + "&waitMs=1000");
        return model.product(id).isPresent()
                ? answer.status() == 200 && answer.json().get("version").asLong() == version
                : answer.status() == 404;
    }

    // ---------------------------------------------------------------- listings over HTTP

    private record Walk(List<JsonNode> items, int pages, List<String> problems) {
    }

    /** Walks a query through its cursors, each page from a random instance, checking every page's shape. */
    private static Walk walk(QueryGenerator.Query q, IntSupplier limits) {
        List<JsonNode> items = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        while (true) {
            int limit = limits.getAsInt();
            List<String> params = filterParams(q.filter());
            // The defaults (sort=price, limit=20) are sometimes left to the service.
            if (q.sort() != CatalogModel.Sort.PRICE || PICK.nextInt(3) > 0) {
                params.add("sort=" + encode(q.sort().wireName()));
            }
            if (limit != 20 || PICK.nextInt(3) > 0) {
                params.add("limit=" + limit);
            }
            if (cursor != null) {
                params.add("cursor=" + encode(cursor));
            }
            String path = "/v1/products" + CatalogCluster.query(params);
            ServiceProcess target = instance();
            HttpTestClient.Answer answer = target.http().get(path);
            pages++;
            if (answer.status() != 200) {
                problems.add("page " + pages + " from " + target.hostPort() + ": GET " + path + " answered "
                        + answer.status() + " " + answer.body());
                return new Walk(items, pages, problems);
            }
            String servedBy = answer.header("X-Served-By");
            if (servedBy != null) {
                SERVED_BY.addAll(List.of(servedBy.split(",")));
            }
            JsonNode body = answer.json();
            JsonNode page = body.get("items");
            JsonNode next = body.get("nextCursor");
            if (page == null || !page.isArray() || next == null) {
                problems.add("page " + pages + ": not a listing answer: " + answer.body());
                return new Walk(items, pages, problems);
            }
            page.forEach(items::add);
            if (page.size() > limit) {
                problems.add("page " + pages + " holds " + page.size() + " items, more than its limit " + limit);
            }
            if (next.isNull()) {
                return new Walk(items, pages, problems);
            }
            if (page.size() != limit) {
                problems.add("page " + pages + " has a nextCursor but holds " + page.size() + " items, not its limit "
                        + limit);
            }
            cursor = next.asText();
            if (pages > PRODUCTS + 2) {
                problems.add("the cursor walk does not end after " + pages + " pages");
                return new Walk(items, pages, problems);
            }
        }
    }

    /** Null when the walk is the model's listing with the model's JSON, else what differs. */
    private static String mismatch(QueryGenerator.Query q, Walk walk) {
        if (!walk.problems.isEmpty()) {
            return String.join("; ", walk.problems);
        }
        List<String> expected = model.listing(q.filter(), q.sort());
        List<String> ids = walk.items.stream().map(item -> item.path("id").asText()).toList();
        if (!ids.equals(expected)) {
            int at = 0;
            while (at < ids.size() && at < expected.size() && ids.get(at).equals(expected.get(at))) {
                at++;
            }
            return "the walk (" + walk.pages + " pages) gave " + ids.size() + " ids, the model " + expected.size()
                    + "; first difference at #" + at + ": expected "
                    + (at < expected.size() ? model.product(expected.get(at)).orElseThrow() : "(end)")
                    + " but was " + (at < ids.size() ? walk.items.get(at) : "(end)");
        }
        for (JsonNode item : walk.items) {
            String diff = ProductJsonCheck.difference(model.product(item.path("id").asText()).orElseThrow(),
                    item.toString());
            if (diff != null) {
                return diff;
            }
        }
        return null;
    }

    private static List<String> filterParams(CatalogModel.Filter f) {
        List<String> params = new ArrayList<>();
        if (f.category() != null) {
            params.add("category=" + encode(f.category()));
        }
        for (String brand : f.brands()) {
            params.add("brand=" + encode(brand));
        }
        if (f.minPrice() != null) {
            params.add("minPrice=" + f.minPrice());
        }
        if (f.maxPrice() != null) {
            params.add("maxPrice=" + f.maxPrice());
        }
        if (f.inStock() != null) {
            params.add("inStock=" + f.inStock());
        }
        return params;
    }

    /** Form encoding ('+' for a space), or percent-encoding ("%20") half of the time: servers must take both. */
    private static String encode(String value) {
        String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8);
        return PICK.nextBoolean() ? encoded : encoded.replace("+", "%20");
    }

    private static ServiceProcess instance() {
        return PICK.nextBoolean() ? first : second;
    }

    // ---------------------------------------------------------------- facets and categories

    private static List<String> categoriesOf(ServiceProcess instance) {
        HttpTestClient.Answer answer = instance.http().get("/v1/categories");
        return answer.status() == 200 ? CatalogCluster.categoriesText(answer.json())
                : List.of(answer.status() + " " + answer.body());
    }

    private static List<String> modelCategories() {
        return CatalogCluster.modelCategories(model);
    }
}
