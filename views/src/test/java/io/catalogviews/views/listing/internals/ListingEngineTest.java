package io.catalogviews.views.listing.internals;

import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.ids.ProductId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.IndexValue;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.SortedMapStore;
import io.catalogviews.views.index.TestValues;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;
import io.catalogviews.views.listing.internals.TestCatalog.Product;
import io.catalogviews.views.product.ProductRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Bytes;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ListingEngineTest {

    private static final String[] BRANDS = {"a", "ab", "acme", "Zeta", "\u00fcn\u00ef", "a b"};
    private static final String[] CATEGORIES = {"phone", "phones", "tv", "tv-x", "audio", "a"};
    private static final int[] LIMITS = {1, 2, 3, 7, 20, 200};

    // ---- random catalogs, filters and queries ----

    static long randomPrice(SplittableRandom r) {
        return switch (r.nextInt(10)) {
            case 0 -> 0L;
            case 1 -> r.nextInt(50) == 0 ? Long.MAX_VALUE : 100_000L;
            case 2, 3, 4 -> r.nextLong(0, 50) * 100; // ties
            default -> r.nextLong(0, 100_000);
        };
    }

    static Product randomProduct(SplittableRandom r, String id, long version) {
        Set<String> categories = new java.util.LinkedHashSet<>();
        int count = r.nextInt(1, 4);
        while (categories.size() < count) {
            categories.add(CATEGORIES[r.nextInt(CATEGORIES.length)]);
        }
        ListingEntry entry = new ListingEntry(version, randomPrice(r), TestValues.randomUpdatedAt(r),
                TestValues.randomRating(r), r.nextInt(4), BRANDS[r.nextInt(BRANDS.length)],
                TestCatalog.jsonOf(id, version));
        return new Product(id, List.copyOf(categories), entry);
    }

    /** 300 products, then changes of every kind (patches, moves between categories and brands, deletions). */
    static TestCatalog randomCatalog(long seed, int partitions) {
        SplittableRandom r = new SplittableRandom(seed);
        TestCatalog catalog = new TestCatalog(partitions);
        Set<String> taken = new HashSet<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String id = TestValues.randomId(r, taken);
            ids.add(id);
            catalog.put(randomProduct(r, id, 1));
        }
        for (int i = 0; i < 300; i++) {
            String id = ids.get(r.nextInt(ids.size()));
            Product old = catalog.products.get(id);
            if (old == null) {
                catalog.put(randomProduct(r, id, 100 + i)); // re-created
                continue;
            }
            ListingEntry e = old.entry();
            long v = e.version() + 1;
            switch (r.nextInt(5)) {
                case 0 -> catalog.put(new Product(id, old.categories(), new ListingEntry(v, randomPrice(r),
                        e.updatedAtMs() + 1, e.rating(), e.stock(), e.brand(), TestCatalog.jsonOf(id, v))));
                case 1 -> catalog.put(new Product(id, old.categories(), new ListingEntry(v, e.priceCents(),
                        e.updatedAtMs() + 1, e.rating(), r.nextInt(3), e.brand(), TestCatalog.jsonOf(id, v))));
                case 2 -> catalog.delete(id);
                default -> catalog.put(randomProduct(r, id, v));
            }
        }
        return catalog;
    }

    static ListingFilter randomFilter(SplittableRandom r) {
        int c = r.nextInt(20);
        String category = c < 8 ? null : c == 8 ? "nope" : CATEGORIES[r.nextInt(CATEGORIES.length)];
        TreeSet<String> brands = new TreeSet<>();
        if (r.nextBoolean()) {
            int count = r.nextInt(1, 4);
            for (int i = 0; i < count; i++) {
                brands.add(r.nextInt(10) == 0 ? "nobrand" : BRANDS[r.nextInt(BRANDS.length)]);
            }
        }
        Long min = r.nextInt(3) == 0 ? randomPrice(r) : null;
        Long max = r.nextInt(3) == 0 ? randomPrice(r) : null;
        if (min != null && max != null && min > max && r.nextInt(4) != 0) { // mostly valid bounds
            Long swap = min;
            min = max;
            max = swap;
        }
        Boolean inStock = switch (r.nextInt(3)) {
            case 0 -> null;
            case 1 -> Boolean.TRUE;
            default -> Boolean.FALSE;
        };
        return new ListingFilter(category, List.copyOf(brands), min, max, inStock);
    }

    /** Walks every page of a query from the first, with a random limit per page (the contract allows it). */
    private static List<ListingItem> walk(TestCatalog catalog, ListingFilter f, SortOrder sort, SplittableRandom r,
                                          SoftAssertions softly) {
        List<ListingItem> walked = new ArrayList<>();
        Position after = null;
        for (int pages = 0; pages < 10_000; pages++) {
            int limit = LIMITS[r.nextInt(LIMITS.length)];
            ListingPage page = catalog.page(new ListingQuery(f, sort, limit, after));
            softly.assertThat(page.items().size()).as("page size of %s %s", f, sort).isLessThanOrEqualTo(limit);
            if (!page.cut()) {
                // Not cut: full with more, or the end of the listing.
                softly.assertThat(page.more() ? page.items().size() == limit : page.next() == null)
                        .as("an uncut page of %s %s is full or ends the listing", f, sort).isTrue();
            } else if (after != null) {
                softly.assertThat(page.scannedTo()).as("a cut page moves forward").isGreaterThan(after);
            }
            softly.assertThat(catalog.openIterators()).as("open iterators").isZero();
            walked.addAll(page.items());
            if (page.next() == null) {
                return walked;
            }
            after = page.next();
        }
        throw new AssertionError("the walk never ended");
    }

    private static void assertWalkEqualsReference(TestCatalog catalog, ListingFilter f, SortOrder sort,
                                                  List<ListingItem> walked, SoftAssertions softly) {
        List<Product> expected = catalog.reference(f, sort);
        softly.assertThat(walked.stream().map(i -> i.position().id()).toList()).as("walk of %s %s", f, sort)
                .containsExactlyElementsOf(expected.stream().map(Product::id).toList());
        if (walked.size() == expected.size()) {
            for (int i = 0; i < expected.size(); i++) {
                Product p = expected.get(i);
                softly.assertThat(walked.get(i).json()).isEqualTo(p.entry().json());
                softly.assertThat(walked.get(i).position().sortValue()).isEqualTo(p.entry().sortValue(sort));
            }
        }
    }

    // ---- pages ----

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldWalkExactlyTheReferenceListWhenFiltersSortsAndLimitsAreRandom(int partitions) {
        TestCatalog catalog = randomCatalog(41L + partitions, partitions);
        SplittableRandom r = new SplittableRandom(7L * partitions);
        SoftAssertions softly = new SoftAssertions();
        int nonEmpty = 0;
        for (int i = 0; i < 400; i++) {
            ListingFilter f = randomFilter(r);
            SortOrder sort = SortOrder.values()[r.nextInt(SortOrder.values().length)];
            List<ListingItem> walked = walk(catalog, f, sort, r, softly);
            assertWalkEqualsReference(catalog, f, sort, walked, softly);
            nonEmpty += walked.size() > 1 ? 1 : 0;
        }
        softly.assertAll();
        assertThat(nonEmpty).as("queries with several items").isGreaterThan(200);
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void shouldWalkEveryScopeExactlyWhenEachSortHasNoFilter(SortOrder sort) {
        TestCatalog catalog = randomCatalog(5L, 3);
        SplittableRandom r = new SplittableRandom(sort.ordinal());
        SoftAssertions softly = new SoftAssertions();
        List<String> scopes = new ArrayList<>(List.of(CATEGORIES));
        scopes.add(null);
        for (String category : scopes) {
            for (Boolean inStock : new Boolean[] {null, true, false}) {
                ListingFilter f = new ListingFilter(category, List.of(), null, null, inStock);
                assertWalkEqualsReference(catalog, f, sort, walk(catalog, f, sort, r, softly), softly);
            }
        }
        softly.assertAll();
    }

    @Test
    void shouldAnswerAnEmptyPageWhenTheCategoryIsUnknownOrBoundsAreInverted() {
        TestCatalog catalog = randomCatalog(9L, 2);
        for (SortOrder sort : SortOrder.values()) {
            assertThat(catalog.page(new ListingQuery(new ListingFilter("nope", List.of(), null, null, null), sort, 20,
                    null))).isEqualTo(new ListingPage(List.of(), false));
            assertThat(catalog.page(new ListingQuery(new ListingFilter(null, List.of(), 500L, 100L, null), sort, 20,
                    null))).isEqualTo(new ListingPage(List.of(), false));
        }
    }

    @Test
    void shouldCostTheSameOnEveryPageWhenTheIndexAnswersEveryFilter() {
        TestCatalog catalog = randomCatalog(13L, 1);
        TestCatalog.Partition p = catalog.partitions.get(0);
        int limit = 5;
        List<ListingFilter> filters = List.of(
                new ListingFilter(null, List.of(), null, null, null),
                new ListingFilter(null, List.of("a", "acme", "\u00fcn\u00ef"), null, null, null),
                new ListingFilter(null, List.of("a", "ab"), 1_000L, 90_000L, null));
        for (ListingFilter f : filters) {
            for (SortOrder sort : SortOrder.values()) {
                boolean rangeIsExact = f.minPrice() == null || sort.isPriceSort();
                if (!rangeIsExact) {
                    continue;
                }
                int runs = Math.max(1, f.brands().size());
                Position after = null;
                int pages = 0;
                while (true) {
                    p.catalogIndex.resetCounters();
                    p.products.resetCounters();
                    ListingPage page = catalog.page(new ListingQuery(f, sort, limit, after));
                    assertThat(p.catalogIndex.rangeCalls()).as("seeks on page %d of %s %s", pages, f, sort)
                            .isEqualTo(runs);
                    // -price reads the price index backwards a whole run of equal prices at a time.
                    long lookAhead = sort == SortOrder.PRICE_DESC ? (long) runs * longestRunOfEqualPrices(catalog) : 0;
                    assertThat(p.catalogIndex.entriesRead()).as("entries read on page %d of %s %s", pages, f, sort)
                            .isLessThanOrEqualTo(limit + 1 + runs + lookAhead);
                    assertThat(p.products.gets()).as("rows read on page %d", pages).isLessThanOrEqualTo(limit + 1);
                    pages++;
                    if (!page.more()) {
                        break;
                    }
                    after = page.items().get(limit - 1).position();
                }
                assertThat(pages).as("pages of %s %s", f, sort).isGreaterThan(3);
            }
        }
    }

    private static long longestRunOfEqualPrices(TestCatalog catalog) {
        return catalog.products.values().stream()
                .collect(Collectors.groupingBy(p -> p.entry().priceCents(), Collectors.counting()))
                .values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void shouldReadOnlyThePagesRowsWhenAWholeCatalogPageMergesPartitions(SortOrder sort) {
        TestCatalog catalog = randomCatalog(17L, 4);
        for (ListingFilter f : List.of(new ListingFilter(null, List.of(), null, null, null),
                new ListingFilter(null, List.of("acme", "a b"), null, null, null))) {
            List<Product> expected = catalog.reference(f, sort);
            // The whole catalog's plain price entries carry the JSON; per-brand and the other sorts' do not.
            boolean servedByEntries = sort.isPriceSort() && f.brands().isEmpty();
            int limit = 7;
            Position after = null;
            List<String> walked = new ArrayList<>();
            while (true) {
                catalog.partitions.forEach(p -> p.products.resetCounters());
                ListingPage page = catalog.page(new ListingQuery(f, sort, limit, after));
                assertThat(catalog.partitions.stream().mapToLong(p -> p.products.gets()).sum())
                        .as("rows read over 4 partitions for page %d of %s %s", walked.size() / limit, f, sort)
                        .isEqualTo(servedByEntries ? 0 : page.items().size());
                page.items().forEach(i -> walked.add(i.position().id()));
                if (!page.more()) {
                    break;
                }
                after = page.next();
            }
            assertThat(walked).as("pages of %s %s", f, sort)
                    .containsExactlyElementsOf(expected.stream().map(Product::id).toList());
            assertThat(walked.size()).as("items of %s %s", f, sort).isGreaterThan(3 * limit);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SortOrder.class, names = {"PRICE", "PRICE_DESC"})
    void shouldReadRowsOnlyForBrandPagesWhenACategoryIsSortedByPrice(SortOrder sort) {
        TestCatalog catalog = randomCatalog(29L, 2);
        SplittableRandom r = new SplittableRandom(3L);
        SoftAssertions softly = new SoftAssertions();
        for (String category : CATEGORIES) {
            for (ListingFilter f : List.of(new ListingFilter(category, List.of(), null, null, null),
                    new ListingFilter(category, List.of("acme", "a b"), 1_000L, 90_000L, true))) {
                catalog.resetCounters();
                List<ListingItem> walked = walk(catalog, f, sort, r, softly);
                assertWalkEqualsReference(catalog, f, sort, walked, softly);
                // A category's plain price entries carry the JSON, its per-brand entries do not (IndexWriter).
                softly.assertThat(rowsRead(catalog)).as("rows read walking %s %s", f, sort)
                        .isEqualTo(f.brands().isEmpty() ? 0 : walked.size());
            }
        }
        softly.assertAll();
    }

    @Test
    void shouldReadTheRowWhenABrandEntryStillCarriesJsonWrittenByAnEarlierRelease() {
        TestCatalog catalog = randomCatalog(37L, 2);
        Product listed = catalog.reference(new ListingFilter("tv", List.of(), null, null, null), SortOrder.PRICE)
                .get(2);
        ListingFilter f = new ListingFilter("tv", List.of(listed.entry().brand()), null, null, null);
        List<Product> expected = catalog.reference(f, SortOrder.PRICE);
        // An earlier release wrote the JSON into per-brand entries too, and a change that kept the entry's key left
        // it there: the row, not that JSON, is the product now.
        Bytes key = IndexKeys.key(IndexKeys.prefix(new IndexKind(SortOrder.PRICE, true), "tv", listed.entry().brand()),
                listed.entry().sortValue(SortOrder.PRICE), listed.id());
        TestCatalog.Partition c = catalog.productPartition(listed.id());
        assertThat(c.categoryIndex.get(key)).as("the brand entry").isNotNull();
        ListingEntry stale = new ListingEntry(listed.entry().version(), listed.entry().priceCents(),
                listed.entry().updatedAtMs(), listed.entry().rating(), listed.entry().stock(), listed.entry().brand(),
                "{\"stale\":true}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        c.categoryIndex.put(key, IndexValue.encodeServing(stale));

        ListingPage page = catalog.page(new ListingQuery(f, SortOrder.PRICE, expected.size(), null));

        assertThat(page.items()).extracting(i -> i.position().id())
                .containsExactlyElementsOf(expected.stream().map(Product::id).toList());
        assertThat(page.items()).filteredOn(i -> i.position().id().equals(listed.id()))
                .singleElement().extracting(ListingItem::json).isEqualTo(listed.entry().json());
    }

    /** Product rows read in every partition since the counters were last reset. */
    private static long rowsRead(TestCatalog catalog) {
        return catalog.partitions.stream().mapToLong(p -> p.products.gets()).sum();
    }

    @Test
    void shouldReadTheRowWhenAPriceEntryWasWrittenWithoutJson() {
        TestCatalog catalog = randomCatalog(31L, 1);
        ListingFilter f = new ListingFilter("tv", List.of(), null, null, null);
        List<Product> expected = catalog.reference(f, SortOrder.PRICE);
        // As an older version wrote it: a plain value in the price index, the JSON only in the row.
        Product old = expected.get(3);
        TestCatalog.Partition c = catalog.productPartition(old.id());
        Bytes key = IndexKeys.key(IndexKeys.prefix(new IndexKind(SortOrder.PRICE, false), "tv", null),
                old.entry().sortValue(SortOrder.PRICE), old.id());
        assertThat(IndexValue.servingJson(c.categoryIndex.get(key))).as("JSON in the entry before").isNotNull();
        c.categoryIndex.put(key, IndexValue.encode(old.entry()));
        catalog.resetCounters();

        ListingPage page = catalog.page(new ListingQuery(f, SortOrder.PRICE, expected.size(), null));

        assertThat(page.items()).extracting(i -> i.position().id())
                .containsExactlyElementsOf(expected.stream().map(Product::id).toList());
        assertThat(page.items().get(3).json()).isEqualTo(old.entry().json());
        assertThat(rowsRead(catalog)).as("rows read").isEqualTo(1);
    }

    @ParameterizedTest // sorts whose whole-catalog entries are plain: the page reads the rows of its items
    @EnumSource(value = SortOrder.class, names = {"UPDATED_DESC", "RATING_DESC"})
    void shouldSkipAnEntryWhoseRowIsMissingWhenPaging(SortOrder sort) {
        TestCatalog catalog = randomCatalog(21L, 2);
        ListingFilter all = new ListingFilter(null, List.of(), null, null, null);
        List<Product> expected = new ArrayList<>(catalog.reference(all, sort));
        // A row gone (not yet written, or already deleted) and a deletion marker in place of a row.
        Product gone = expected.get(10);
        Product marked = expected.get(20);
        catalog.productPartition(gone.id()).products.delete(RowKeys.product(new ProductId(gone.id())));
        catalog.productPartition(marked.id()).products.put(RowKeys.product(new ProductId(marked.id())),
                ProductRow.deletionMarker(99, 1).encode());
        expected.remove(marked);
        expected.remove(gone);
        SoftAssertions softly = new SoftAssertions();

        List<ListingItem> walked = walk(catalog, all, sort, new SplittableRandom(1), softly);

        softly.assertThat(walked.stream().map(i -> i.position().id()).toList())
                .containsExactlyElementsOf(expected.stream().map(Product::id).toList());
        softly.assertAll();
    }

    @Test
    void shouldSayNoMoreWhenTheOnlyFurtherEntryHasNoRow() {
        TestCatalog catalog = randomCatalog(23L, 1);
        ListingFilter f = new ListingFilter("tv", List.of(), null, null, null);
        List<Product> expected = catalog.reference(f, SortOrder.RATING_DESC);
        Product last = expected.get(expected.size() - 1);
        TestCatalog.Partition p = catalog.partitions.get(0);
        p.products.delete(RowKeys.product(new ProductId(last.id())));

        // One partition's page, which reads the rows as it scans (a merged page reads positions first).
        ListingPage page = catalog.engine.page(p.categoryIndex, RowReader.productRows(p.products), "tv",
                new ListingQuery(f, SortOrder.RATING_DESC, expected.size() - 1, null));

        assertThat(page.items()).hasSize(expected.size() - 1);
        assertThat(page.more()).isFalse();
        assertThat(catalog.engine.page(p.categoryIndex, RowReader.productRows(p.products), "tv",
                new ListingQuery(f, SortOrder.RATING_DESC, expected.size() - 2, null)).more()).isTrue();
    }

    @Test
    void shouldRejectALimitBelowOneWhenAskedForAPage() {
        TestCatalog catalog = new TestCatalog(1);
        assertThatThrownBy(() -> catalog.page(new ListingQuery(new ListingFilter(null, List.of(), null, null, null),
                SortOrder.PRICE, 0, null))).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- facets ----

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldCountLikeTheReferenceWhenFacetFiltersAreRandom(int partitions) {
        TestCatalog catalog = randomCatalog(61L + partitions, partitions);
        SplittableRandom r = new SplittableRandom(3L);
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < 500; i++) {
            ListingFilter f = randomFilter(r);
            softly.assertThat(catalog.facets(f)).as("facets of %s", f).isEqualTo(catalog.referenceFacets(f));
            softly.assertThat(catalog.openIterators()).isZero();
        }
        softly.assertAll();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldCountFromTheCountersLikeTheReferenceWhenThereIsNoFilter(int partitions) {
        TestCatalog catalog = randomCatalog(71L + partitions, partitions);
        List<String> scopes = new ArrayList<>(List.of(CATEGORIES));
        scopes.add(null);
        scopes.add("nope");
        scopes.add("phon");
        for (String category : scopes) {
            ListingFilter f = new ListingFilter(category, List.of(), null, null, null);
            for (TestCatalog.Partition p : catalog.partitions) {
                p.catalogIndex.resetCounters();
                p.categoryIndex.resetCounters();
            }

            assertThat(catalog.facets(f)).as("facets of %s", category).isEqualTo(catalog.referenceFacets(f));
            assertThat(catalog.openIterators()).isZero();
            for (TestCatalog.Partition p : catalog.partitions) {
                assertThat(p.catalogIndex.entriesRead() + p.categoryIndex.entriesRead()).as("index entries read")
                        .isLessThanOrEqualTo(2);
            }
        }
    }

    @Test
    void shouldAnswerEmptyFacetsWhenNothingMatches() {
        TestCatalog catalog = randomCatalog(81L, 2);
        assertThat(catalog.facets(new ListingFilter("nope", List.of(), null, null, null))).isEqualTo(FacetCounts.EMPTY);
        assertThat(catalog.facets(new ListingFilter(null, List.of("nobrand"), null, null, null)))
                .isEqualTo(FacetCounts.EMPTY);
        assertThat(new TestCatalog(1).facets(new ListingFilter(null, List.of(), null, null, null)))
                .isEqualTo(FacetCounts.EMPTY);
    }

    @Test
    void shouldMergeFacetsWhenSomePartsAreEmpty() {
        FacetCounts acme = new FacetCounts(2, 1, java.util.Map.of("acme", 2L), 100L, 300L);
        FacetCounts zeta = new FacetCounts(3, 3, java.util.Map.of("acme", 1L, "zeta", 2L), 50L, 200L);

        assertThat(ListingEngine.mergeFacets(List.of(FacetCounts.EMPTY, FacetCounts.EMPTY)))
                .isEqualTo(FacetCounts.EMPTY);
        assertThat(ListingEngine.mergeFacets(List.of())).isEqualTo(FacetCounts.EMPTY);
        assertThat(ListingEngine.mergeFacets(List.of(FacetCounts.EMPTY, acme, FacetCounts.EMPTY))).isEqualTo(acme);
        assertThat(ListingEngine.mergeFacets(List.of(acme, zeta))).isEqualTo(
                new FacetCounts(5, 4, java.util.Map.of("acme", 3L, "zeta", 2L), 50L, 300L));
    }

    // ---- categories ----

    @Test
    void shouldListEveryNonEmptyCategoryByNameWhenProductsMoved() {
        TestCatalog catalog = randomCatalog(91L, 3);

        assertThat(catalog.categories()).isEqualTo(catalog.referenceCategories()).isNotEmpty();
        assertThat(catalog.openIterators()).isZero();
    }

    @Test
    void shouldSeekPastBrandCountersWhenACategoryHasManyBrands() {
        TestCatalog catalog = new TestCatalog(1);
        int n = 0;
        for (String category : new String[] {"a", "a-b", "b", "c"}) {
            int brands = category.equals("b") ? 1 : 200;
            for (int i = 0; i < brands; i++) {
                String id = "p" + n++;
                catalog.put(new Product(id, List.of(category), new ListingEntry(1, 100, 1, null, 1, "brand-" + i,
                        TestCatalog.jsonOf(id, 1))));
            }
        }
        catalog.delete("p0"); // "a" keeps 199 products, and loses a brand
        SortedMapStore<Bytes> facets = catalog.partitions.get(0).categoryFacets;
        facets.resetCounters();

        List<CategoryCount> categories = catalog.categories();

        assertThat(categories).containsExactly(new CategoryCount("a", 199), new CategoryCount("a-b", 200),
                new CategoryCount("b", 1), new CategoryCount("c", 200));
        assertThat(facets.entriesRead()).isLessThan(100);
        assertThat(facets.openIterators()).isZero();
    }

    // ---- merge ----

    private static ListingItem item(long sortValue, String id) {
        return new ListingItem(new Position(sortValue, id), id.getBytes());
    }

    private static List<String> ids(ListingPage page) {
        return page.items().stream().map(i -> i.position().id()).toList();
    }

    @Test
    void shouldMergeInListingOrderWhenPagesInterleave() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(3, "a"), item(-1L, "z")), false);
        ListingPage b = new ListingPage(List.of(item(1, "B"), item(3, "b"), item(Long.MIN_VALUE, "x")), false);
        ListingPage c = new ListingPage(List.of(), false);

        ListingPage merged = ListingEngine.merge(List.of(a, b, c), 10);

        // Sort values compare unsigned: MIN_VALUE (0x80..) before -1 (0xFF..); ids by bytes: "B" before "a".
        assertThat(ids(merged)).containsExactly("B", "a", "a", "b", "x", "z");
        assertThat(merged.more()).isFalse();
    }

    @Test
    void shouldSayMoreWhenItemsAreLeftOverOrAFullInputHadMore() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(2, "a")), false);
        ListingPage b = new ListingPage(List.of(item(5, "b")), false);
        ListingPage full = new ListingPage(List.of(item(0, "c"), item(3, "c"), item(4, "c")), true);

        assertThat(ListingEngine.merge(List.of(a, b), 2)).isEqualTo(new ListingPage(List.of(a.items().get(0),
                a.items().get(1)), true));
        assertThat(ListingEngine.merge(List.of(a, b), 3).more()).isFalse();
        // "full" is complete only up to its last item (4, c): (5, b) may come after items it has not shown.
        assertThat(ListingEngine.merge(List.of(a, b, full), 3)).satisfies(p -> {
            assertThat(ids(p)).containsExactly("c", "a", "a");
            assertThat(p.more()).isTrue();
        });
        assertThat(ListingEngine.merge(List.of(), 5)).isEqualTo(new ListingPage(List.of(), false));
    }

    @Test
    void shouldCutTheMergedPageAtTheLowestCutWhenAPartitionRanOutOfBudget() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(6, "a")), false);
        ListingPage cutEarly = new ListingPage(List.of(item(2, "c")), false, new Position(4, "x"));
        ListingPage cutLate = new ListingPage(List.of(), false, new Position(9, "y"));

        ListingPage merged = ListingEngine.merge(List.of(a, cutEarly, cutLate), 20);

        // (6, a) is beyond what the early cut examined: something of that partition may sort before it.
        assertThat(ids(merged)).containsExactly("a", "c");
        assertThat(merged.cut()).isTrue();
        assertThat(merged.next()).isEqualTo(new Position(4, "x"));
        assertThat(ListingEngine.merge(List.of(a, cutEarly), 1)).isEqualTo(new ListingPage(List.of(a.items().get(0)),
                true));
        assertThat(ListingEngine.merge(List.of(cutLate), 20).next()).isEqualTo(new Position(9, "y"));
    }

    // ---- scan budgets ----

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldWalkExactlyTheReferenceListWhenATinyBudgetCutsMostPages(int partitions) {
        TestCatalog catalog = randomCatalog(43L + partitions, partitions);
        SplittableRandom r = new SplittableRandom(11L * partitions);
        SoftAssertions softly = new SoftAssertions();
        int cutPages = 0;
        for (int i = 0; i < 300; i++) {
            long budget = 1 + r.nextInt(6);
            catalog.withScanBudget(budget);
            ListingFilter f = randomFilter(r);
            SortOrder sort = SortOrder.values()[r.nextInt(SortOrder.values().length)];
            List<ListingItem> walked = walk(catalog, f, sort, r, softly);
            assertWalkEqualsReference(catalog, f, sort, walked, softly);
            catalog.resetCounters();
            cutPages += catalog.page(new ListingQuery(f, sort, 20, null)).cut() ? 1 : 0;
        }
        softly.assertAll();
        assertThat(cutPages).as("first pages cut by the budget").isGreaterThan(100);
    }

    @Test
    void shouldReadAtMostTheBudgetWhenAQueryMatchesNothing() {
        TestCatalog catalog = randomCatalog(17L, 1).withScanBudget(25);
        // 300 products, none above the highest price: inStock and the price bound are filters over scanned entries.
        ListingFilter nothing = new ListingFilter(null, List.of(), 100_001L, null, null);
        ListingFilter nothingInCategory = new ListingFilter("tv", List.of("acme", "a"), 100_001L, null, true);
        for (ListingFilter f : List.of(nothing, nothingInCategory)) {
            for (SortOrder sort : List.of(SortOrder.UPDATED_DESC, SortOrder.RATING_DESC)) {
                catalog.resetCounters();

                ListingPage page = catalog.page(new ListingQuery(f, sort, 20, null));

                assertThat(catalog.indexEntriesRead()).as("entries read for %s %s", f, sort).isLessThanOrEqualTo(25);
                assertThat(page.items()).isEmpty();
                assertThat(page.cut()).as("cut page of %s %s", f, sort).isEqualTo(f == nothing);
                assertThat(catalog.openIterators()).isZero();
            }
            catalog.resetCounters();
            assertThat(catalog.facets(f)).isEqualTo(FacetCounts.EMPTY); // the price bound is the facets' key range
            assertThat(catalog.indexEntriesRead()).as("facet entries read for %s", f).isLessThanOrEqualTo(25);
        }
        // Stock is a filter over scanned entries: nothing out of stock below a price, in the whole catalog.
        ListingFilter broad = new ListingFilter(null, List.of(), null, 99_999L, false);
        catalog.resetCounters();

        assertThat(catalog.facets(broad)).isEqualTo(FacetCounts.OVER_BUDGET);
        assertThat(catalog.indexEntriesRead()).as("facet entries read for %s", broad).isLessThanOrEqualTo(25);
        assertThat(catalog.openIterators()).isZero();
    }

    @Test
    void shouldNeverCutWhenTheScopeFitsTheDefaultBudget() {
        TestCatalog catalog = new TestCatalog(1);
        int products = 5_000;
        for (int i = 0; i < products; i++) {
            String id = String.format("p%05d", i);
            catalog.put(new Product(id, List.of("tv"), new ListingEntry(1, i, i, null, i == products - 1 ? 1 : 0,
                    "acme", TestCatalog.jsonOf(id, 1))));
        }
        // One product in 5 000 is in stock, and it sorts last: a page must read the whole scope to find it.
        ListingFilter inStock = new ListingFilter("tv", List.of(), null, null, true);

        ListingPage page = catalog.page(new ListingQuery(inStock, SortOrder.PRICE, 20, null));

        assertThat(ids(page)).containsExactly(String.format("p%05d", products - 1));
        assertThat(page.cut()).isFalse();
        assertThat(page.next()).isNull();
        assertThat(catalog.facets(inStock).total()).isEqualTo(1);
        assertThat(catalog.facets(inStock).overBudget()).isFalse();
    }

    @Test
    void shouldMoveForwardWhenTheBudgetIsSmallerThanTheBrandIndexesMerged() {
        TestCatalog catalog = randomCatalog(19L, 1).withScanBudget(1);
        ListingFilter brands = new ListingFilter(null, List.of("a", "ab", "acme", "Zeta"), null, null, null);
        SoftAssertions softly = new SoftAssertions();

        List<ListingItem> walked = walk(catalog, brands, SortOrder.PRICE, new SplittableRandom(3), softly);

        assertWalkEqualsReference(catalog, brands, SortOrder.PRICE, walked, softly);
        softly.assertAll();
    }
}
