package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.SortedMapStore;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.internals.TestCatalog.Product;
import io.catalogviews.views.query.IndexCommits;
import io.catalogviews.views.query.KeyPartitioner;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;

class PageCacheTest {

    private static final int PARTITIONS = 4;
    private static final Set<Integer> ALL = Set.of(0, 1, 2, 3);
    private static final ToIntFunction<String> CATALOG = id -> KeyPartitioner.partitionOf(id, PARTITIONS);

    /** Where a kind of page is read from: the whole catalog's indexes, or the category scopes'. */
    enum Scope {
        CATALOG(p -> p.catalogIndex, p -> p.products, key -> new String(key, StandardCharsets.US_ASCII)),
        CATEGORY(p -> p.categoryIndex, p -> p.products, key -> new String(key, StandardCharsets.US_ASCII));

        private final Function<TestCatalog.Partition, SortedMapStore<Bytes>> index;
        private final Function<TestCatalog.Partition, SortedMapStore<Bytes>> rows;
        private final Function<byte[], String> idOfRow;

        Scope(Function<TestCatalog.Partition, SortedMapStore<Bytes>> index,
              Function<TestCatalog.Partition, SortedMapStore<Bytes>> rows, Function<byte[], String> idOfRow) {
            this.index = index;
            this.rows = rows;
            this.idOfRow = idOfRow;
        }

        SortedMapStore<Bytes> index(TestCatalog.Partition p) {
            return index.apply(p);
        }

        SortedMapStore<Bytes> rows(TestCatalog.Partition p) {
            return rows.apply(p);
        }

        String idOfRow(byte[] key) {
            return idOfRow.apply(key);
        }
    }
    private static final ListingQuery CHEAPEST = new ListingQuery(
            new ListingFilter(null, List.of(), null, null, null), SortOrder.PRICE, 5, null);

    /** One commit of a partition: what it writes to the catalog index and the rows, and the state after it. */
    private record Commit(int partition, Scope scope, Map<Bytes, byte[]> index, Map<Bytes, byte[]> rows,
                          IndexCommits.Touches touches) {
    }

    /** 40 products priced 100, 200, … 4 000, spread over the partitions. */
    private static TestCatalog pricedCatalog() {
        TestCatalog catalog = new TestCatalog(PARTITIONS);
        for (int i = 1; i <= 40; i++) {
            String id = "p" + i;
            catalog.put(new Product(id, List.of("phones"), new ListingEntry(1, i * 100L, 1_000 + i, 4.0f, 1, "acme",
                    TestCatalog.jsonOf(id, 1))));
        }
        return catalog;
    }

    /** {@code id} at {@code price} from the next version on, staged as a commit of its partition. */
    private static Commit reprice(TestCatalog catalog, String id, long price) {
        Product old = catalog.products.get(id);
        ListingEntry e = old.entry();
        long v = e.version() + 1;
        return stage(catalog, KeyPartitioner.partitionOf(id, PARTITIONS), () -> catalog.put(new Product(id,
                old.categories(), new ListingEntry(v, price, e.updatedAtMs() + 1, e.rating(), e.stock(), e.brand(),
                TestCatalog.jsonOf(id, v)))));
    }

    private static String rendered(ListingPage page) {
        StringBuilder b = new StringBuilder();
        for (ListingItem item : page.items()) {
            b.append(item.position()).append('=').append(new String(item.json(), StandardCharsets.UTF_8)).append(';');
        }
        return b.append(" more=").append(page.more()).append(" scannedTo=").append(page.scannedTo()).toString();
    }

    /** The partitions a page of {@code q} reads: every one, for a category as for the whole catalog. */
    private static Set<Integer> partitionsOf(ListingQuery q) {
        return ALL;
    }

    private static ListingEngine.PageAnswer read(TestCatalog catalog, ListingQuery q) {
        return catalog.engine.catalogAnswer(catalog.stores(q.filter().category()),
                id -> KeyPartitioner.partitionOf(id, PARTITIONS), q);
    }

    /**
     * Applies {@code change} to the model, and takes its writes to the catalog index and rows of {@code partition}
     * back out of the stores: they become readable when the commit applies them.
     */
    private static Commit stage(TestCatalog catalog, int partition, Runnable change) {
        List<Commit> commits = stage(catalog, Scope.CATALOG, change);
        assertThat(commits).allMatch(c -> c.partition == partition);
        return commits.isEmpty() ? new Commit(partition, Scope.CATALOG, Map.of(), Map.of(),
                new IndexCommits.Touches(new byte[0][], Set.of())) : commits.get(0);
    }

    /**
     * Applies {@code change} to the model, and takes its writes to the stores of {@code scope} back out: one commit
     * per partition it writes, each applying its writes when it makes them readable.
     */
    private static List<Commit> stage(TestCatalog catalog, Scope scope, Runnable change) {
        List<NavigableMap<Bytes, byte[]>> indexBefore = new ArrayList<>();
        List<NavigableMap<Bytes, byte[]>> rowsBefore = new ArrayList<>();
        for (TestCatalog.Partition p : catalog.partitions) {
            indexBefore.add(new TreeMap<>(scope.index(p).contents()));
            rowsBefore.add(new TreeMap<>(scope.rows(p).contents()));
        }
        change.run();
        List<Commit> commits = new ArrayList<>();
        for (int i = 0; i < catalog.partitions.size(); i++) {
            TestCatalog.Partition p = catalog.partitions.get(i);
            Map<Bytes, byte[]> index = diff(indexBefore.get(i), scope.index(p));
            Map<Bytes, byte[]> rows = diff(rowsBefore.get(i), scope.rows(p));
            restore(scope.index(p), indexBefore.get(i));
            restore(scope.rows(p), rowsBefore.get(i));
            if (index.isEmpty() && rows.isEmpty()) {
                continue;
            }
            byte[][] keys = index.keySet().stream().map(Bytes::get).sorted(java.util.Arrays::compareUnsigned)
                    .toArray(byte[][]::new);
            Set<String> ids = new HashSet<>();
            rows.keySet().forEach(k -> ids.add(scope.idOfRow(k.get())));
            commits.add(new Commit(i, scope, index, rows, new IndexCommits.Touches(keys, ids)));
        }
        return commits;
    }

    private static Map<Bytes, byte[]> diff(NavigableMap<Bytes, byte[]> before, SortedMapStore<Bytes> after) {
        Map<Bytes, byte[]> out = new TreeMap<>();
        after.contents().forEach((k, v) -> {
            if (!java.util.Arrays.equals(before.get(k), v)) {
                out.put(k, v);
            }
        });
        before.keySet().forEach(k -> {
            if (!after.contents().containsKey(k)) {
                out.put(k, null);
            }
        });
        return out;
    }

    private static void restore(SortedMapStore<Bytes> store, NavigableMap<Bytes, byte[]> contents) {
        store.contents().clear();
        store.contents().putAll(contents);
    }

    private static void apply(TestCatalog catalog, Commit c) {
        TestCatalog.Partition p = catalog.partitions.get(c.partition);
        c.index.forEach(c.scope.index(p)::put);
        c.rows.forEach(c.scope.rows(p)::put);
    }

    /** A change of a product of {@code partition}: a price, a stock level, a new product, or a deletion. */
    private static Runnable randomChange(TestCatalog catalog, int partition, SplittableRandom r) {
        List<String> ids = catalog.products.keySet().stream()
                .filter(id -> KeyPartitioner.partitionOf(id, PARTITIONS) == partition).toList();
        if (ids.isEmpty() || r.nextInt(6) == 0) {
            String id;
            do {
                id = "n" + r.nextInt(1_000_000);
            } while (KeyPartitioner.partitionOf(id, PARTITIONS) != partition || catalog.products.containsKey(id));
            Product p = ListingEngineTest.randomProduct(r, id, 1);
            return () -> catalog.put(p);
        }
        String id = ids.get(r.nextInt(ids.size()));
        Product old = catalog.products.get(id);
        ListingEntry e = old.entry();
        long v = e.version() + 1;
        return switch (r.nextInt(5)) {
            case 0 -> () -> catalog.delete(id);
            case 1 -> () -> catalog.put(new Product(id, old.categories(), new ListingEntry(v, e.priceCents(),
                    e.updatedAtMs(), e.rating(), e.stock(), e.brand(), TestCatalog.jsonOf(id, v))));
            case 2 -> () -> catalog.put(new Product(id, old.categories(), new ListingEntry(v, e.priceCents(),
                    e.updatedAtMs() + 1, e.rating(), r.nextInt(3), e.brand(), TestCatalog.jsonOf(id, v))));
            default -> () -> catalog.put(new Product(id, old.categories(), new ListingEntry(v,
                    ListingEngineTest.randomPrice(r), e.updatedAtMs() + 1, e.rating(), e.stock(), e.brand(),
                    TestCatalog.jsonOf(id, v))));
        };
    }

    private static final String[] CATEGORIES = {"phone", "phones", "tv", "tv-x", "audio", "a"};

    /** Queries of the scope, of every sort and filter, page 1 or after an item of their page 1. */
    private static List<ListingQuery> queries(TestCatalog catalog, Scope scope, SplittableRandom r) {
        List<ListingQuery> out = new ArrayList<>();
        SortOrder[] sorts = SortOrder.values();
        while (out.size() < 40) {
            ListingFilter random = ListingEngineTest.randomFilter(r);
            String category = scope == Scope.CATALOG ? null : CATEGORIES[r.nextInt(CATEGORIES.length)];
            ListingFilter f = new ListingFilter(category, random.brands(), random.minPrice(), random.maxPrice(),
                    random.inStock());
            SortOrder sort = sorts[r.nextInt(sorts.length)];
            int limit = 1 + r.nextInt(12);
            ListingQuery first = new ListingQuery(f, sort, limit, null);
            out.add(first);
            List<ListingItem> items = read(catalog, first).page().items();
            if (!items.isEmpty()) {
                out.add(new ListingQuery(f, sort, limit, items.get(r.nextInt(items.size())).position()));
            }
        }
        return out;
    }

    @Test
    void shouldKeepAPageWhenACommitWritesOutsideTheRangesItWasReadFrom() {
        TestCatalog catalog = pricedCatalog();
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        cache.keep(CHEAPEST, ALL, cache.stamp(), read(catalog, CHEAPEST));
        Commit c = reprice(catalog, "p40", 5_000);

        cache.committing(c.partition, c.touches);
        apply(catalog, c);
        cache.committed(c.partition);

        assertThat(cache.get(CHEAPEST, ALL)).as("the 5 cheapest, after the dearest product's price rose").isNotNull();
        assertThat(rendered(cache.get(CHEAPEST, ALL))).isEqualTo(rendered(read(catalog, CHEAPEST).page()));
    }

    @Test
    void shouldDropAPageWhenACommitMovesAProductIntoItsRange() {
        TestCatalog catalog = pricedCatalog();
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        cache.keep(CHEAPEST, ALL, cache.stamp(), read(catalog, CHEAPEST));
        Commit c = reprice(catalog, "p40", 50);

        cache.committing(c.partition, c.touches);

        assertThat(cache.get(CHEAPEST, ALL)).as("while the commit that makes it the cheapest is under way").isNull();
        cache.keep(CHEAPEST, ALL, cache.stamp(), read(catalog, CHEAPEST)); // read before the commit's writes
        apply(catalog, c);
        cache.committed(c.partition);
        assertThat(cache.get(CHEAPEST, ALL)).as("after the commit, from a read before it").isNull();
        cache.keep(CHEAPEST, ALL, cache.stamp(), read(catalog, CHEAPEST));
        assertThat(cache.get(CHEAPEST, ALL).items().get(0).position().id()).as("kept again, read after")
                .isEqualTo("p40");
    }

    @Test
    void shouldDropAPageWhenACommitRewritesTheRowOfOneOfItsItems() {
        TestCatalog catalog = pricedCatalog();
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        // -rating entries carry no JSON, and a change that keeps price, rating and stock leaves them as they are.
        ListingQuery byRating = new ListingQuery(CHEAPEST.filter(), SortOrder.RATING_DESC, 5, null);
        cache.keep(byRating, ALL, cache.stamp(), read(catalog, byRating));
        String first = cache.get(byRating, ALL).items().get(0).position().id();
        Product old = catalog.products.get(first);
        ListingEntry e = old.entry();
        Commit c = stage(catalog, KeyPartitioner.partitionOf(first, PARTITIONS), () -> catalog.put(new Product(first,
                old.categories(), new ListingEntry(e.version() + 1, e.priceCents(), e.updatedAtMs(), e.rating(),
                e.stock(), e.brand(), TestCatalog.jsonOf(first, e.version() + 1)))));

        cache.committing(c.partition, c.touches);

        assertThat(cache.get(byRating, ALL)).isNull();
    }

    @Test
    void shouldNotKeepAPageWhenATouchingCommitEndedBetweenItsStampAndItsKeeping() {
        TestCatalog catalog = ListingEngineTest.randomCatalog(7, PARTITIONS);
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        long stamp = cache.stamp();
        ListingEngine.PageAnswer before = read(catalog, CHEAPEST);
        String cheapest = before.page().items().get(0).position().id();
        int partition = KeyPartitioner.partitionOf(cheapest, PARTITIONS);
        Commit c = stage(catalog, partition, () -> catalog.delete(cheapest));
        cache.committing(partition, c.touches);
        apply(catalog, c);
        cache.committed(partition);

        cache.keep(CHEAPEST, ALL, stamp, before);

        assertThat(cache.get(CHEAPEST, ALL)).isNull();
    }

    @Test
    void shouldDropEveryPageOverAPartitionWhenItsCopyIsReset() {
        TestCatalog catalog = ListingEngineTest.randomCatalog(7, PARTITIONS);
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        cache.keep(CHEAPEST, ALL, cache.stamp(), read(catalog, CHEAPEST));
        cache.keep(CHEAPEST, Set.of(0, 1), cache.stamp(), read(catalog, CHEAPEST));

        cache.reset(3);

        assertThat(cache.get(CHEAPEST, ALL)).isNull();
        assertThat(cache.get(CHEAPEST, Set.of(0, 1))).isNotNull();
    }

    /**
     * Readers, commits (told before their writes become readable, ended after) and resets interleaved at random: a
     * kept page always equals what a read of the stores answers at that moment, and pages are kept (this is not a
     * cache that keeps nothing). A change writes one partition, its product's, in every scope of the product.
     */
    @ParameterizedTest
    @CsvSource({"CATALOG,1", "CATALOG,2", "CATALOG,3", "CATALOG,4", "CATEGORY,1", "CATEGORY,2", "CATEGORY,3",
            "CATEGORY,4"})
    void shouldAlwaysServeWhatAReadWouldAnswerWhenCommitsAndReadersInterleave(Scope scope, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TestCatalog catalog = ListingEngineTest.randomCatalog(seed, PARTITIONS);
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        List<ListingQuery> queries = queries(catalog, scope, r);
        List<Object[]> readers = new ArrayList<>(); // {query, stamp, answer}
        List<Commit> pending = new ArrayList<>(); // staged, not yet told
        Commit[] underWay = new Commit[PARTITIONS];
        boolean[] readable = new boolean[PARTITIONS];
        int checked = 0;
        for (int step = 0; step < 5_000; step++) {
            int partition = r.nextInt(PARTITIONS);
            boolean idle = pending.isEmpty() && java.util.Arrays.stream(underWay).allMatch(Objects::isNull);
            boolean partitionIdle = underWay[partition] == null
                    && pending.stream().noneMatch(c -> c.partition == partition);
            boolean mayStage = partitionIdle;
            switch (r.nextInt(7)) {
                case 0 -> {
                    ListingQuery q = queries.get(r.nextInt(queries.size()));
                    readers.add(new Object[] {q, cache.stamp(), read(catalog, q)});
                }
                case 1 -> {
                    if (!readers.isEmpty()) {
                        Object[] reader = readers.remove(r.nextInt(readers.size()));
                        ListingQuery q = (ListingQuery) reader[0];
                        cache.keep(q, partitionsOf(q), (long) reader[1], (ListingEngine.PageAnswer) reader[2]);
                    }
                }
                case 2 -> {
                    if (mayStage) {
                        pending.addAll(stage(catalog, scope, randomChange(catalog, partition, r)));
                    }
                }
                case 3 -> {
                    for (Commit c : pending) {
                        if (underWay[c.partition] == null) {
                            pending.remove(c);
                            underWay[c.partition] = c;
                            cache.committing(c.partition, c.touches);
                            break;
                        }
                    }
                }
                case 4 -> {
                    Commit c = underWay[partition];
                    if (c != null && !readable[partition]) {
                        apply(catalog, c);
                        readable[partition] = true;
                    } else if (c != null) {
                        underWay[partition] = null;
                        readable[partition] = false;
                        cache.committed(partition);
                    }
                }
                case 5 -> {
                    if (mayStage && r.nextInt(20) == 0) {
                        for (Commit c : stage(catalog, scope, randomChange(catalog, partition, r))) {
                            apply(catalog, c);
                            cache.reset(c.partition); // a restore wrote the partition
                        }
                    }
                }
                default -> {
                    ListingQuery q = queries.get(r.nextInt(queries.size()));
                    ListingPage kept = cache.get(q, partitionsOf(q));
                    if (kept != null) {
                        assertThat(rendered(kept)).as("kept page of %s at step %d", q, step)
                                .isEqualTo(rendered(read(catalog, q).page()));
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).as("kept pages served and checked").isGreaterThan(50);
        assertThat(cache.hits()).isEqualTo(checked);
        assertThat(catalog.openIterators()).isZero();
    }

    @Test
    void shouldNotKeepAPageReadBeforeACommitTooBigToRememberWhenTheCommitTouchedNothingOfIt() {
        TestCatalog catalog = pricedCatalog();
        PageCache cache = new PageCache(CATALOG, 1 << 20);
        long stamp = cache.stamp();
        ListingEngine.PageAnswer answer = read(catalog, CHEAPEST);
        // A load's commit: more keys than the cache remembers, all beyond the page (kind tag 0x7F).
        byte[][] keys = new byte[(int) PageCache.HISTORY_ENTRIES + 1][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new byte[] {0x7F, (byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
        }
        cache.committing(0, new IndexCommits.Touches(keys, Set.of()));
        cache.committed(0);

        cache.keep(CHEAPEST, ALL, stamp, answer);
        assertThat(cache.get(CHEAPEST, ALL)).as("read before a commit it no longer remembers").isNull();
        cache.keep(CHEAPEST, ALL, cache.stamp(), answer);
        assertThat(cache.get(CHEAPEST, ALL)).as("read after it").isNotNull();
    }

    @Test
    void shouldKeepNothingBeyondItsBytesWhenPagesKeepComing() {
        TestCatalog catalog = ListingEngineTest.randomCatalog(7, PARTITIONS);
        ListingEngine.PageAnswer answer = read(catalog, CHEAPEST);
        long pageBytes = answer.page().items().stream().mapToLong(i -> i.json().length + 64L).sum();
        PageCache cache = new PageCache(CATALOG, pageBytes * 3);
        for (int limit = 1; limit <= 4; limit++) {
            ListingQuery q = new ListingQuery(CHEAPEST.filter(), SortOrder.PRICE, 5, null);
            cache.keep(q, Set.of(limit), cache.stamp(), answer);
        }

        long kept = 0;
        for (int limit = 1; limit <= 4; limit++) {
            kept += cache.get(CHEAPEST, Set.of(limit)) == null ? 0 : 1;
        }
        assertThat(kept).as("pages kept of 4, room for 3").isBetween(1L, 3L);
    }
}
