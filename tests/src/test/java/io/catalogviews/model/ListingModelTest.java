package io.catalogviews.model;

import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.ids.ProductId;

import io.catalogviews.topology.DeadLetterReason;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;
import io.catalogviews.views.listing.internals.ListingEngine;
import io.catalogviews.views.listing.internals.NamespacedStore;
import io.catalogviews.views.listing.internals.RowReader;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.query.KeyPartitioner;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Model-based test of the sorted index views (issue 3): a seeded random history is applied to the production
 * topology (under {@link org.apache.kafka.streams.TopologyTestDriver}, exactly-once v2) and to
 * {@link CatalogModel}, an independent in-memory reference; then random queries run through
 * {@link ListingEngine} over the topology's stores (category queries on the category stores, whole-catalog
 * queries on the catalog index with the product view's rows) and must equal the model's answers exactly: every
 * cursor walk in full, facets, categories, and the product JSON of every item.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListingModelTest {

    static final int PRODUCTS = 300;
    static final int EVENTS = 2_000;
    static final int QUERIES = 400;
    static final int FACET_FILTERS = 150;

    private static final ListingEngine ENGINE = new ListingEngine();

    /** A history applied to both sides, kept for every test of one seed. */
    private record Loaded(List<HistoryEvent> history, CatalogModel model, DriverCatalog driver) {
    }

    private final Map<Long, Loaded> loaded = new HashMap<>();
    private final Map<Long, List<DriverCatalog>> sharded = new HashMap<>();

    /** Product partitions of the sharded run: the whole catalog split as the service splits it. */
    static final int SHARDS = 3;

    private Loaded load(long seed) {
        return loaded.computeIfAbsent(seed, s -> {
            List<HistoryEvent> history = HistoryGenerator.generate(s, PRODUCTS, EVENTS);
            CatalogModel model = new CatalogModel();
            DriverCatalog driver = new DriverCatalog();
            for (HistoryEvent e : history) {
                model.apply(e);
                driver.apply(e);
            }
            return new Loaded(history, model, driver);
        });
    }

    /**
     * The same history split over {@value #SHARDS} drivers by the product id's partition (murmur2), each holding
     * the whole-catalog index of one product partition, as the instances of a deployment do.
     */
    private List<DriverCatalog> shards(long seed) {
        return sharded.computeIfAbsent(seed, s -> {
            List<DriverCatalog> shards = new ArrayList<>();
            for (int i = 0; i < SHARDS; i++) {
                shards.add(new DriverCatalog());
            }
            for (HistoryEvent e : load(s).history()) {
                shards.get(KeyPartitioner.partitionOf(e.productId(), SHARDS)).apply(e);
            }
            return shards;
        });
    }

    @AfterAll
    void closeDrivers() {
        loaded.values().forEach(l -> l.driver().close());
        sharded.values().forEach(shards -> shards.forEach(DriverCatalog::close));
    }

    // ---------------------------------------------------------------- the history itself

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldCountTheModelsOutcomesWhenTheHistoryIsApplied(long seed) {
        Loaded l = load(seed);

        assertThat(l.driver().outcomes).as("outcomes (applied, stale, dead-lettered)")
                .containsEntry(CatalogModel.Outcome.APPLIED, l.model().count(CatalogModel.Outcome.APPLIED))
                .containsEntry(CatalogModel.Outcome.STALE, l.model().count(CatalogModel.Outcome.STALE))
                .containsEntry(CatalogModel.Outcome.DEAD_LETTERED, l.model().count(CatalogModel.Outcome.DEAD_LETTERED));
        assertThat(l.driver().deadLetterReasons.keySet()).as("dead-letter reasons")
                .isSubsetOf(DeadLetterReason.UNKNOWN_PRODUCT);
        assertThat(l.driver().deadLettersWritten()).as("records on the dead-letter topic")
                .isEqualTo(l.model().count(CatalogModel.Outcome.DEAD_LETTERED));
        // The history exercises what it claims to.
        assertThat(l.model().count(CatalogModel.Outcome.STALE)).isGreaterThan(50);
        assertThat(l.model().count(CatalogModel.Outcome.DEAD_LETTERED)).isGreaterThan(10);
        assertThat(l.model().products()).hasSizeGreaterThan(PRODUCTS / 3);
        assertThat(l.history().stream().filter(HistoryEvent::json).count()).isBetween(EVENTS / 3L, EVENTS * 2 / 3L);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldHoldTheModelsProductsAndDeletionMarkersWhenTheHistoryIsApplied(long seed) {
        Loaded l = load(seed);
        KeyValueStore<Bytes, byte[]> products = l.driver().products();
        List<String> problems = new ArrayList<>();

        for (String id : l.model().rememberedIds()) {
            byte[] raw = products.get(RowKeys.product(new ProductId(id)));
            ModelProduct expected = l.model().product(id).orElse(null);
            if (raw == null) {
                problems.add(id + ": no row, expected " + (expected == null ? "a deletion marker" : "v" + expected.version()));
                continue;
            }
            ProductRow row = ProductRow.decode(raw);
            if (expected == null) {
                if (!row.deleted() || row.version() != l.model().rememberedVersion(id)) {
                    problems.add(id + ": expected a deletion marker at v" + l.model().rememberedVersion(id)
                            + " but was " + row);
                }
            } else {
                String diff = row.deleted() ? "deleted at v" + row.version() : ProductJsonCheck.difference(expected, row.json());
                if (diff != null) {
                    problems.add(diff);
                }
            }
        }
        for (ModelProduct p : l.model().products()) {
            assertThat(l.model().rememberedVersion(p.id())).isEqualTo(p.version());
        }

        assertThat(problems).as("product view vs model").isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldHoldEveryProductInEachOfItsCategoriesWithTheProductViewsJsonWhenTheViewsConverge(long seed) {
        Loaded l = load(seed);
        KeyValueStore<Bytes, byte[]> products = l.driver().products();
        Map<String, byte[]> listed = new TreeMap<>(CategoryScopes.listed(products));
        List<String> problems = new ArrayList<>();

        for (ModelProduct p : l.model().products()) {
            byte[] productJson = ProductRow.jsonOf(products.get(RowKeys.product(new ProductId(p.id()))));
            for (String category : p.categories()) {
                byte[] json = listed.remove(category + " " + p.id());
                if (json == null) {
                    problems.add(p.id() + " v" + p.version() + " is missing from category " + category);
                } else if (!Arrays.equals(json, productJson)) {
                    problems.add(p.id() + " in " + category + " serves " + new String(json, StandardCharsets.UTF_8)
                            + " but the product view " + new String(productJson, StandardCharsets.UTF_8));
                }
            }
        }
        listed.keySet().forEach(pair -> problems.add("category and product listed, which the model does not have: "
                + pair));

        assertThat(problems).as("category scopes vs product view and model").isEmpty();
    }

    // ---------------------------------------------------------------- listings

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldReturnTheModelsListingOnFullCursorWalksWhenQueriesAreRandom(long seed) {
        Loaded l = load(seed);
        QueryGenerator queries = new QueryGenerator(seed * 31 + 1);
        SplittableRandom limits = new SplittableRandom(seed ^ 0x5DEECE66DL);
        long pages = 0;
        long items = 0;
        long nonEmpty = 0;

        for (int i = 0; i < QUERIES; i++) {
            QueryGenerator.Query q = queries.next();
            // A fifth of the walks change the page size on every page (a cursor continues with any limit).
            boolean varyLimit = i % 5 == 4;
            Walk walk = walk(l, q, varyLimit ? queries::nextLimit : () -> q.limit());
            List<String> expected = l.model().listing(q.filter(), q.sort());
            assertSameListing("query " + i + " (seed " + seed + "): " + q + (varyLimit ? " (varying limits)" : ""),
                    l.model(), expected, walk);
            pages += walk.pages;
            items += walk.items.size();
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        // The queries are not trivially empty.
        assertThat(nonEmpty).isGreaterThan(QUERIES / 2);
        System.out.printf("seed %d: %d queries, %d pages, %d items compared%n", seed, QUERIES, pages, items);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldReturnTheModelsListingInEverySortWhenUnfilteredWithSmallPages(long seed) {
        Loaded l = load(seed);
        List<String> scopes = new ArrayList<>(HistoryGenerator.CATEGORIES);
        scopes.add(null);
        for (String scope : scopes) {
            for (CatalogModel.Sort sort : CatalogModel.Sort.values()) {
                QueryGenerator.Query q = new QueryGenerator.Query(CatalogModel.Filter.category(scope), sort, 3);
                assertSameListing("unfiltered " + q + " (seed " + seed + ")", l.model(),
                        l.model().listing(q.filter(), sort), walk(l, q, () -> 3));
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L}) // one seed: loading the sharded drivers costs as much as the history
    void shouldReturnTheModelsWholeCatalogListingWhenThePagesOfSeveralPartitionsAreMerged(long seed) {
        Loaded l = load(seed);
        List<DriverCatalog> shards = shards(seed);
        QueryGenerator queries = new QueryGenerator(seed * 13 + 5);
        long pages = 0;

        for (int i = 0; i < QUERIES / 2; i++) {
            QueryGenerator.Query random = queries.next();
            CatalogModel.Filter f = random.filter();
            QueryGenerator.Query q = new QueryGenerator.Query(new CatalogModel.Filter(null, f.brands(), f.minPrice(),
                    f.maxPrice(), f.inStock()), random.sort(), random.limit());
            Walk walk = mergedWalk(shards, q);
            assertSameListing("merged query " + i + " (seed " + seed + "): " + q, l.model(),
                    l.model().listing(q.filter(), q.sort()), walk);
            pages += walk.pages;
        }
        for (int i = 0; i < FACET_FILTERS / 3; i++) {
            CatalogModel.Filter random = i == 0 ? CatalogModel.Filter.category(null) : queries.nextFilter();
            CatalogModel.Filter f = new CatalogModel.Filter(null, random.brands(), random.minPrice(),
                    random.maxPrice(), random.inStock());
            FacetCounts merged = FacetCounts.EMPTY;
            for (DriverCatalog shard : shards) {
                merged = merged.merge(ENGINE.facets(shard.index(null), shard.facets(null), null, listingFilter(f)));
            }
            assertThat(facetsText(merged)).as("merged facets of %s (seed %d)", f, seed)
                    .isEqualTo(facetsText(l.model().facets(f)));
        }
        System.out.printf("seed %d: %d merged whole-catalog queries, %d pages%n", seed, QUERIES / 2, pages);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L})
    void shouldReturnTheModelsListingWhenATinyScanBudgetCutsMostPages(long seed) {
        Loaded l = load(seed);
        List<DriverCatalog> shards = shards(seed);
        QueryGenerator queries = new QueryGenerator(seed * 37 + 11);
        SplittableRandom budgets = new SplittableRandom(seed);
        long pages = 0;
        long cut = 0;

        for (int i = 0; i < QUERIES / 2; i++) {
            // 1..6 entries per scan: most pages are cut, often before their first match (brand merges examine
            // at least one entry more than they merge indexes).
            ListingEngine tiny = new ListingEngine(1 + budgets.nextInt(6));
            QueryGenerator.Query q = queries.next();
            Walk walk = walk(tiny, l, q, queries::nextLimit);
            assertSameListing("query " + i + " with a scan budget of " + tiny.scanBudget() + " (seed " + seed
                    + "): " + q, l.model(), l.model().listing(q.filter(), q.sort()), walk);
            CatalogModel.Filter f = q.filter();
            QueryGenerator.Query whole = new QueryGenerator.Query(new CatalogModel.Filter(null, f.brands(),
                    f.minPrice(), f.maxPrice(), f.inStock()), q.sort(), q.limit());
            Walk merged = mergedWalk(tiny, shards, whole);
            assertSameListing("merged query " + i + " with a scan budget of " + tiny.scanBudget() + " (seed " + seed
                    + "): " + whole, l.model(), l.model().listing(whole.filter(), whole.sort()), merged);
            pages += walk.pages + merged.pages;
            cut += walk.cutPages + merged.cutPages;
        }
        assertThat(cut).as("pages cut by the budget").isGreaterThan(pages / 3);
        System.out.printf("seed %d: %d walks with budgets of 1..6 entries, %d pages, %d of them cut%n", seed,
                QUERIES, pages, cut);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L})
    void shouldReadAtMostTheBudgetWhenAQueryMatchesNothing(long seed) {
        Loaded l = load(seed);
        ListingEngine budgeted = new ListingEngine(50);
        // No product is above every price: under -updatedAt the bound filters entries instead of bounding the scan.
        ListingFilter nothing = new ListingFilter(null, List.of(), Long.MAX_VALUE - 1, null, null);
        CountingStore index = new CountingStore(l.driver().index(null));

        ListingPage page = budgeted.page(index, l.driver().rows(null), null,
                new ListingQuery(nothing, SortOrder.UPDATED_DESC, 20, null));

        assertThat(index.entriesRead).as("index entries read").isLessThanOrEqualTo(50);
        assertThat(page.items()).isEmpty();
        assertThat(page.cut()).isTrue();
        assertThat(page.next()).isNotNull();
    }

    // ---------------------------------------------------------------- facets and categories

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldReturnTheModelsFacetsWhenFiltersAreRandomOrAbsent(long seed) {
        Loaded l = load(seed);
        List<CatalogModel.Filter> filters = new ArrayList<>();
        filters.add(CatalogModel.Filter.category(null));
        HistoryGenerator.CATEGORIES.forEach(c -> filters.add(CatalogModel.Filter.category(c)));
        QueryGenerator.UNKNOWN_CATEGORIES.forEach(c -> filters.add(CatalogModel.Filter.category(c)));
        QueryGenerator generator = new QueryGenerator(seed * 17 + 3);
        for (int i = 0; i < FACET_FILTERS; i++) {
            filters.add(generator.nextFilter());
        }
        List<String> problems = new ArrayList<>();

        for (CatalogModel.Filter f : filters) {
            FacetCounts actual = ENGINE.facets(l.driver().index(f.category()), l.driver().facets(f.category()),
                    f.category(), listingFilter(f));
            String expectedText = facetsText(l.model().facets(f));
            String actualText = facetsText(actual);
            if (!expectedText.equals(actualText)) {
                problems.add(f + "\n   expected " + expectedText + "\n   but was  " + actualText);
            }
        }

        assertThat(problems).as("facets vs model (seed %d)", seed).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261129L, 7L, 424242L})
    void shouldListEveryNonEmptyCategoryWithItsCountWhenCategoriesAreAsked(long seed) {
        Loaded l = load(seed);
        // The history gives some category more brand counters than the engine reads before it seeks past them.
        Map<String, java.util.Set<String>> brandsByCategory = new HashMap<>();
        l.model().products().forEach(p -> p.categories().forEach(c ->
                brandsByCategory.computeIfAbsent(c, k -> new java.util.HashSet<>()).add(p.brand())));
        assertThat(brandsByCategory.values().stream().mapToInt(java.util.Set::size).max().orElse(0))
                .isGreaterThan(16);

        List<CategoryCount> actual = ENGINE.categories(NamespacedStore.categoryFacets(l.driver().products()));

        assertThat(actual).extracting(c -> c.category() + "=" + c.count())
                .containsExactlyElementsOf(l.model().categories().stream().map(c -> c.category() + "=" + c.count())
                        .toList());
    }

    // ---------------------------------------------------------------- helpers

    private record Walk(List<ListingItem> items, int pages, int cutPages) {
    }

    /** Pages through a query from the start to {@code more == false}, checking the shape of every page. */
    private static Walk walk(Loaded l, QueryGenerator.Query q, java.util.function.IntSupplier limits) {
        return walk(ENGINE, l, q, limits);
    }

    /**
     * Pages through a query from the start until a page says nothing follows ({@link ListingPage#next()} null),
     * checking the shape of every page: a page whose scan was not cut is full or ends the listing.
     */
    private static Walk walk(ListingEngine engine, Loaded l, QueryGenerator.Query q,
                             java.util.function.IntSupplier limits) {
        String category = q.filter().category();
        ListingFilter filter = listingFilter(q.filter());
        SortOrder sort = SortOrder.fromWireName(q.sort().wireName());
        var index = l.driver().index(category);
        RowReader rows = l.driver().rows(category);
        List<ListingItem> items = new ArrayList<>();
        Position after = null;
        int pages = 0;
        int cutPages = 0;
        while (true) {
            int limit = limits.getAsInt();
            ListingPage page = engine.page(index, rows, category, new ListingQuery(filter, sort, limit, after));
            pages++;
            checkShape(q, pages, page, limit, after);
            items.addAll(page.items());
            if (page.next() == null) {
                return new Walk(items, pages, cutPages);
            }
            cutPages += page.cut() ? 1 : 0;
            after = page.next();
            if (pages > PRODUCTS * 4) {
                fail("%s: the cursor walk does not end (%d pages, last position %s)", q, pages, after);
            }
        }
    }

    private static void checkShape(QueryGenerator.Query q, int pages, ListingPage page, int limit, Position after) {
        if (page.items().size() > limit) {
            fail("%s: page %d holds %d items, more than its limit %d", q, pages, page.items().size(), limit);
        }
        if (page.more() && page.items().size() != limit) {
            fail("%s: page %d says more follow but holds %d items, not its limit %d (after %s)", q, pages,
                    page.items().size(), limit, after);
        }
        if (page.cut() && after != null && page.scannedTo().compareTo(after) <= 0) {
            fail("%s: page %d was cut at %s, not after where it started (%s)", q, pages, page.scannedTo(), after);
        }
    }

    private static void assertSameListing(String what, CatalogModel model, List<String> expected, Walk walk) {
        List<String> ids = walk.items.stream().map(item -> item.position().id()).toList();
        if (!ids.equals(expected)) {
            int at = 0;
            while (at < ids.size() && at < expected.size() && ids.get(at).equals(expected.get(at))) {
                at++;
            }
            String expectedThere = at < expected.size() ? expected.get(at) + " = " + model.product(expected.get(at))
                    .orElseThrow() : "(end)";
            String actualThere = at < ids.size() ? new String(walk.items.get(at).json(), StandardCharsets.UTF_8)
                    : "(end)";
            fail("%s%n  the walk (%d pages) gave %d ids, the model %d; first difference at #%d:%n"
                            + "  expected %s%n  but was  %s%n  expected ids %s%n  actual ids   %s",
                    what, walk.pages, ids.size(), expected.size(), at, expectedThere, actualThere,
                    window(expected, at), window(ids, at));
        }
        List<String> problems = new ArrayList<>();
        for (ListingItem item : walk.items) {
            String diff = ProductJsonCheck.difference(model.product(item.position().id()).orElseThrow(), item.json());
            if (diff != null) {
                problems.add(diff);
            }
        }
        assertThat(problems).as("%s: item JSON vs model", what).isEmpty();
    }

    private static List<String> window(List<String> ids, int at) {
        return ids.subList(Math.max(0, at - 3), Math.min(ids.size(), at + 4));
    }

    static ListingFilter listingFilter(CatalogModel.Filter f) {
        return new ListingFilter(f.category(), List.copyOf(f.brands()), f.minPrice(), f.maxPrice(), f.inStock());
    }

    private static String facetsText(CatalogModel.Facets f) {
        Map<String, Long> brands = f.brands().stream().collect(Collectors.toMap(
                CatalogModel.BrandCount::value, CatalogModel.BrandCount::count, (a, b) -> a, LinkedHashMap::new));
        return f.total() + " total, " + f.inStock() + " in stock, brands " + brands + ", price " + f.minPrice()
                + ".." + f.maxPrice();
    }

    private static String facetsText(FacetCounts f) {
        return f.total() + " total, " + f.inStock() + " in stock, brands " + sortedLikeTheModel(f.brands())
                + ", price " + f.minPrice() + ".." + f.maxPrice();
    }

    /**
     * A whole-catalog walk as the service runs it: every product partition answers a page after the cursor, and
     * {@link ListingEngine#merge} keeps the first {@code limit} items of their union.
     */
    private static Walk mergedWalk(List<DriverCatalog> shards, QueryGenerator.Query q) {
        return mergedWalk(ENGINE, shards, q);
    }

    private static Walk mergedWalk(ListingEngine engine, List<DriverCatalog> shards, QueryGenerator.Query q) {
        ListingFilter filter = listingFilter(q.filter());
        SortOrder sort = SortOrder.fromWireName(q.sort().wireName());
        List<ListingItem> items = new ArrayList<>();
        Position after = null;
        int pages = 0;
        int cutPages = 0;
        while (true) {
            List<ListingPage> parts = new ArrayList<>();
            for (DriverCatalog shard : shards) {
                parts.add(engine.page(shard.index(null), shard.rows(null), null,
                        new ListingQuery(filter, sort, q.limit(), after)));
            }
            ListingPage page = ListingEngine.merge(parts, q.limit());
            pages++;
            checkShape(q, pages, page, q.limit(), after);
            items.addAll(page.items());
            if (page.next() == null) {
                return new Walk(items, pages, cutPages);
            }
            cutPages += page.cut() ? 1 : 0;
            after = page.next();
            if (pages > PRODUCTS * 4) {
                fail("%s: the merged cursor walk does not end (%d pages, last position %s)", q, pages, after);
            }
        }
    }

    private static Map<String, Long> sortedLikeTheModel(Map<String, Long> brands) {
        return brands.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }
}
