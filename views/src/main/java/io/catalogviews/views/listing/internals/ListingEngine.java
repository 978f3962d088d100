package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.FacetCounters;
import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexValue;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The read side of the sorted index views, over plain {@link ReadOnlyKeyValueStore}s of one partition (a
 * category partition), or of several product partitions merged (the whole catalog). Stateless and thread-safe. Every
 * iterator it opens is closed before it returns or throws.
 *
 * <p>Every scan has a budget of index entries examined ({@link #DEFAULT_SCAN_BUDGET} unless configured): a page
 * whose budget runs out answers the matches found so far and where it stopped ({@link ListingPage#scannedTo()}), so
 * that the next page resumes there; facets over budget answer {@link FacetCounts#OVER_BUDGET}. A query matching
 * nothing thus costs at most the budget, not the whole scope.
 *
 * <p>Query plans and their cost (n = entries of the scanned index ranges that the filters then reject):
 * <ul>
 *   <li>Pages: one range scan per index read, each starting at the cursor (one seek), merged by (sort value,
 *       id); a page reads {@code limit + 1} accepted entries plus n, and one row per item (plus one for the
 *       look-ahead that decides {@code more}) — no row at all under {@code price}, {@code -price} and
 *       {@code -updatedAt} in a category and under {@code price} and {@code -price} in the whole catalog, without
 *       brands, whose entries of those indexes carry the serving JSON ({@link IndexValue#servingJson}). n is zero
 *       when every filter is answered by the choice of index: no filter, brands (per-brand indexes), price bounds
 *       under {@code price} or {@code -price} (a key range).
 *       {@code -price} reads the {@code price} index backwards, one run of equal prices at a time (see
 *       {@link DescendingPriceRuns}): a look-ahead of at most one run more.
 *       Price bounds under {@code -updatedAt} or {@code -rating}, and {@code inStock}, are filters over the
 *       scanned entries (n grows with the share of products out of stock, or in stock for
 *       {@code inStock=false}).</li>
 *   <li>Facets without filters: the maintained counters (one point read plus one short range over the brands of
 *       the scope) and the first entry of the price and -price indexes.</li>
 *   <li>Facets with filters: a scan of every matching entry of the price index when price bounds are given,
 *       else of the {@code -rating} index (small values), per brand when brands are given, plus n.</li>
 * </ul>
 */
public final class ListingEngine {

    /**
     * Index entries one scan may examine unless configured: 10 000, so that a scope of a few thousand entries is
     * never cut (whatever share of it a filter keeps), while a query that matches little in a large scope stops
     * after a few milliseconds of reading instead of reading the whole scope.
     */
    public static final long DEFAULT_SCAN_BUDGET = 10_000;

    /** Consecutive brand counters seen by {@link #categories} before it seeks past the rest of a scope. */
    private static final int SKIP_SCOPE_AFTER = 16;

    private static final Bytes BEYOND_EVERY_CATEGORY = Bytes.wrap(new byte[] {(byte) 0xFF});

    /** Reads no row: every entry counts as a live product, for pages whose rows are read after the merge. */
    private static final byte[] NOT_READ = new byte[0];
    private static final RowReader POSITIONS_ONLY = id -> NOT_READ;

    private final long scanBudget;

    /** An engine whose scans examine at most {@link #DEFAULT_SCAN_BUDGET} index entries each. */
    public ListingEngine() {
        this(DEFAULT_SCAN_BUDGET);
    }

    /**
     * @param scanBudget index entries one scan (a page, or the facets of one partition) may examine, per partition
     *                   read; at least 1.
     *                   A page merging several brand indexes examines at least one entry more than it has brands,
     *                   so that every page moves forward.
     */
    public ListingEngine(long scanBudget) {
        if (scanBudget < 1) {
            throw new IllegalArgumentException("the scan budget must be at least 1 entry, not " + scanBudget);
        }
        this.scanBudget = scanBudget;
    }

    public long scanBudget() {
        return scanBudget;
    }

    /**
     * A page of a listing in one partition.
     *
     * @param index          the sorted indexes (the index namespace of {@code CATEGORY_LISTINGS} or {@code PRODUCTS})
     * @param rows           the JSON of the products the entries point at
     * @param categoryOrNull the category scope of the index keys, or null for the whole-catalog indexes
     * @return up to {@code q.limit()} items strictly after {@code q.after()}, in listing order; {@code more}
     *         exactly when a further item matches, or, when the scan budget ran out first, the matches up to the
     *         last entry examined and that entry's position ({@link ListingPage#scannedTo()})
     */
    public ListingPage page(ReadOnlyKeyValueStore<Bytes, byte[]> index, RowReader rows, String categoryOrNull,
                            ListingQuery q) {
        List<Range> ranges = new ArrayList<>();
        for (IndexScan scan : IndexScan.plan(categoryOrNull, q.filter(), q.sort(), q.after())) {
            ranges.add(new Range(index, scan, rows));
        }
        return pageOf(ranges, scanBudget, q).page();
    }

    /** {@link #page} with the index ranges its answer depends on, so that it can be kept ({@link PageCache}). */
    public PageAnswer pageAnswer(ReadOnlyKeyValueStore<Bytes, byte[]> index, RowReader rows, String categoryOrNull,
                                 ListingQuery q) {
        List<Range> ranges = new ArrayList<>();
        for (IndexScan scan : IndexScan.plan(categoryOrNull, q.filter(), q.sort(), q.after())) {
            ranges.add(new Range(index, scan, rows));
        }
        Scanned scanned = pageOf(ranges, scanBudget, q);
        return new PageAnswer(scanned.page(), dependsOn(categoryOrNull, q, scanned.lastSuffix()));
    }

    /** The index ranges of a page, each with where its products' rows are. */
    private record Range(ReadOnlyKeyValueStore<Bytes, byte[]> index, IndexScan scan, RowReader rows) {
    }

    /**
     * A page and how far its answer reaches into the ranges it merged.
     *
     * @param lastSuffix the key suffix (sort value, id: in listing order) of the last entry the page depends on, or
     *                   null when the page depends on the ranges to their ends (it read them to their ends, or its
     *                   budget ran out, which any entry of them may move)
     */
    private record Scanned(ListingPage page, byte[] lastSuffix) {
    }

    /** A page of the ranges merged, examining at most {@code budget} entries (and at least one per range). */
    private static Scanned pageOf(List<Range> ranges, long budget, ListingQuery q) {
        if (q.limit() < 1) {
            throw new IllegalArgumentException("page limit must be at least 1, not " + q.limit());
        }
        ListingFilter filter = q.filter();
        // Per-brand entries carry no JSON (IndexWriter#servesPages); one written there by an earlier release is not
        // read, since a change that keeps such an entry's key and plain value leaves the old JSON in it.
        boolean entriesServe = filter.brands().isEmpty();
        List<ListingItem> items = new ArrayList<>(Math.min(q.limit(), 64));
        boolean more = false;
        byte[] lastKey = null;
        int lastPrefixLength = 0;
        boolean cut;
        // Every page must examine at least one entry, or a cut page would resume where it started.
        try (MergedScan merged = new MergedScan(ranges, Math.max(budget, ranges.size() + 1L))) {
            while (merged.hasNext()) {
                KeyValue<Bytes, byte[]> entry = merged.next();
                lastKey = entry.key.get();
                lastPrefixLength = merged.lastPrefixLength();
                byte[] value = entry.value;
                if (!filter.accepts(IndexValue.priceCents(value), IndexValue.inStock(value))) {
                    continue;
                }
                String id = IndexKeys.idOf(lastKey, lastPrefixLength);
                // A serving entry was written in one batch with its row, so it stands for the row.
                byte[] json = entriesServe ? IndexValue.servingJson(value) : null;
                if (json == null) {
                    json = merged.lastRows().json(id);
                }
                if (json == null) {
                    continue; // the row is not there (yet, or any more): not a listed product
                }
                if (items.size() == q.limit()) {
                    more = true;
                    break;
                }
                items.add(new ListingItem(new Position(IndexKeys.sortValueOf(lastKey, lastPrefixLength), id), json));
            }
            cut = !more && merged.outOfBudget();
        }
        if (cut) {
            Position scannedTo = new Position(IndexKeys.sortValueOf(lastKey, lastPrefixLength),
                    IndexKeys.idOf(lastKey, lastPrefixLength));
            return new Scanned(new ListingPage(items, false, scannedTo), null);
        }
        return new Scanned(new ListingPage(items, more),
                more ? Arrays.copyOfRange(lastKey, lastPrefixLength, lastKey.length) : null);
    }

    /**
     * One product partition of a merged page: the indexes of the page's scope (the whole catalog's, or the category
     * scopes' when the query names a category) and its product rows.
     */
    public record CatalogPartition(ReadOnlyKeyValueStore<Bytes, byte[]> index, RowReader rows) {
    }

    /**
     * A page merged over product partitions, of the whole catalog or of the query's category (each partition holds
     * the scopes of its products): positions first, rows last. The partitions' index ranges are merged as they are read
     * (one seek per range, then only as many entries as the page takes: about {@code limit} plus one per partition,
     * instead of {@code limit + 1} from each), and only the merged page's rows are read — none for items whose entry
     * carries the serving JSON (the plain {@code price} index; {@code IndexWriter}). A product's row is in the
     * partition of its id, like its index entries. When a chosen item has no live row there (deleted after its entry
     * was read), the page is read again with rows, which skips entries without rows: the answer is the same either
     * way. The scan budget is the partitions' budgets together: the merge never examines more entries than
     * partition pages of their own would.
     *
     * @param partitions    the product partitions asked, by partition number
     * @param partitionOfId the partition number of a product id
     */
    public ListingPage catalogPage(Map<Integer, CatalogPartition> partitions, ToIntFunction<String> partitionOfId,
                                   ListingQuery q) {
        return catalogAnswer(partitions, partitionOfId, q).page();
    }

    /**
     * A page and what its answer depends on, so that it can be kept until a commit writes there ({@link PageCache}).
     *
     * @param page      the page
     * @param dependsOn the index key ranges (inclusive, in every partition read) in which any write may change the
     *                  page; besides them, a write of the row of one of its items may change it
     */
    public record PageAnswer(ListingPage page, List<KeyRange> dependsOn) {
    }

    /** An inclusive range of index keys, unsigned byte order. */
    public record KeyRange(byte[] from, byte[] to) {
    }

    /** {@link #catalogPage} with the index ranges its answer depends on. */
    public PageAnswer catalogAnswer(Map<Integer, CatalogPartition> partitions, ToIntFunction<String> partitionOfId,
                                       ListingQuery q) {
        Scanned merged = mergedPage(partitions, p -> POSITIONS_ONLY, q);
        List<ListingItem> items = new ArrayList<>(merged.page().items().size());
        for (ListingItem item : merged.page().items()) {
            if (item.json() != NOT_READ) {
                items.add(item); // from a serving entry, written in one batch with its row
                continue;
            }
            CatalogPartition p = partitions.get(partitionOfId.applyAsInt(item.position().id()));
            byte[] json = p == null ? null : p.rows().json(item.position().id());
            if (json == null) {
                Scanned withRows = mergedPage(partitions, CatalogPartition::rows, q);
                return new PageAnswer(withRows.page(), dependsOn(q.filter().category(), q, withRows.lastSuffix()));
            }
            items.add(new ListingItem(item.position(), json));
        }
        ListingPage page = new ListingPage(items, merged.page().more(), merged.page().scannedTo());
        return new PageAnswer(page, dependsOn(q.filter().category(), q, merged.lastSuffix()));
    }

    /**
     * The index key ranges of the scope in which a write may change the answer of {@code q}: each scanned
     * range up to the last entry the answer depends on ({@code lastSuffix}, in listing order), or to its end.
     * {@code -price} reads the {@code price} index backwards, so its ranges are {@code price} keys from the last
     * entry's price (every id of it: a few entries more than needed) up.
     */
    private static List<KeyRange> dependsOn(String categoryOrNull, ListingQuery q, byte[] lastSuffix) {
        List<IndexScan> scans = IndexScan.plan(categoryOrNull, q.filter(), q.sort(), q.after());
        List<KeyRange> out = new ArrayList<>(scans.size());
        for (IndexScan scan : scans) {
            byte[] from = scan.from().get();
            byte[] to = scan.to().get();
            if (lastSuffix != null && !scan.descending()) {
                byte[] last = concat(scan.prefix(), lastSuffix);
                to = Arrays.compareUnsigned(last, to) < 0 ? last : to;
            } else if (lastSuffix != null) {
                long lastPrice = DescendingPriceRuns.descendingValue(IndexKeys.sortValueOf(lastSuffix, 0));
                byte[] low = IndexKeys.lowerBound(scan.prefix(), lastPrice).get();
                from = Arrays.compareUnsigned(low, from) > 0 ? low : from;
            }
            if (Arrays.compareUnsigned(from, to) <= 0) {
                out.add(new KeyRange(from, to));
            }
        }
        return List.copyOf(out);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private Scanned mergedPage(Map<Integer, CatalogPartition> partitions,
                               Function<CatalogPartition, RowReader> rows, ListingQuery q) {
        List<IndexScan> scans = IndexScan.plan(q.filter().category(), q.filter(), q.sort(), q.after());
        List<Range> ranges = new ArrayList<>(scans.size() * partitions.size());
        for (CatalogPartition p : partitions.values()) {
            RowReader partitionRows = rows.apply(p);
            for (IndexScan scan : scans) {
                ranges.add(new Range(p.index(), scan, partitionRows));
            }
        }
        int n = Math.max(1, partitions.size());
        return pageOf(ranges, scanBudget > Long.MAX_VALUE / n ? Long.MAX_VALUE : scanBudget * n, q);
    }

    /**
     * Facets of the products of one partition that match {@code f}.
     *
     * @param index          the sorted indexes of the partition
     * @param facetStore     the facet counters of the partition (the facet namespace of {@code CATEGORY_LISTINGS} or {@code PRODUCTS})
     * @param categoryOrNull the category, or null for the whole catalog (counter scope "")
     * @return the facets, or {@link FacetCounts#OVER_BUDGET} when the filter leaves more index entries to count than
     *         the scan budget
     */
    public FacetCounts facets(ReadOnlyKeyValueStore<Bytes, byte[]> index, ReadOnlyKeyValueStore<Bytes, byte[]> facetStore,
                              String categoryOrNull, ListingFilter f) {
        return f.isUnfiltered() ? countedFacets(index, facetStore, categoryOrNull) : scannedFacets(index, categoryOrNull, f);
    }

    private static FacetCounts countedFacets(ReadOnlyKeyValueStore<Bytes, byte[]> index,
                                             ReadOnlyKeyValueStore<Bytes, byte[]> facetStore, String categoryOrNull) {
        String scope = categoryOrNull == null ? "" : categoryOrNull;
        byte[] totals = facetStore.get(FacetCounters.totalKey(scope));
        long total = FacetCounters.total(totals);
        if (total <= 0) {
            return FacetCounts.EMPTY;
        }
        byte[] prefix = FacetCounters.scopePrefix(scope);
        Map<String, Long> brands = new HashMap<>();
        // Brand keys are prefix + brand UTF-8, and UTF-8 has no 0xFF byte: prefix + 0xFF is above all of them.
        try (KeyValueIterator<Bytes, byte[]> it = facetStore.range(Bytes.wrap(prefix), Bytes.wrap(withFF(prefix)))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> counter = it.next();
                byte[] key = counter.key.get();
                long count = FacetCounters.total(counter.value);
                if (key.length > prefix.length && count > 0) {
                    brands.put(FacetCounters.brandOf(key), count);
                }
            }
        }
        return new FacetCounts(total, FacetCounters.inStock(totals), brands,
                edgePrice(index, categoryOrNull, false), edgePrice(index, categoryOrNull, true));
    }

    /** The lowest price of the scope, or the highest: the first entry of its price index read either way. */
    private static Long edgePrice(ReadOnlyKeyValueStore<Bytes, byte[]> index, String categoryOrNull, boolean highest) {
        IndexScan scan = IndexScan.whole(SortOrder.PRICE, categoryOrNull);
        try (KeyValueIterator<Bytes, byte[]> it = highest ? index.reverseRange(scan.from(), scan.to())
                : index.range(scan.from(), scan.to())) {
            return it.hasNext() ? IndexValue.priceCents(it.next().value) : null;
        }
    }

    /**
     * Counts every entry of the query's ranges of the price index; {@link FacetCounts#OVER_BUDGET} as soon as the
     * ranges turn out to hold more entries than the budget (matching or not), having read at most the budget.
     */
    private FacetCounts scannedFacets(ReadOnlyKeyValueStore<Bytes, byte[]> index, String categoryOrNull,
                                      ListingFilter f) {
        long reads = 0;
        long total = 0;
        long inStock = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        Map<String, Long> brands = new HashMap<>();
        for (IndexScan scan : IndexScan.plan(categoryOrNull, f, facetSort(f), null)) {
            long brandCount = 0;
            try (KeyValueIterator<Bytes, byte[]> it = index.range(scan.from(), scan.to())) {
                while (it.hasNext()) {
                    if (reads++ == scanBudget) {
                        return FacetCounts.OVER_BUDGET;
                    }
                    byte[] value = it.next().value;
                    long price = IndexValue.priceCents(value);
                    boolean entryInStock = IndexValue.inStock(value);
                    if (!f.accepts(price, entryInStock)) {
                        continue;
                    }
                    total++;
                    if (entryInStock) {
                        inStock++;
                    }
                    min = Math.min(min, price);
                    max = Math.max(max, price);
                    if (scan.brand() == null) {
                        brands.merge(IndexValue.brand(value), 1L, Long::sum);
                    } else {
                        brandCount++;
                    }
                }
            }
            if (brandCount > 0) {
                brands.merge(scan.brand(), brandCount, Long::sum);
            }
        }
        return total == 0 ? FacetCounts.EMPTY : new FacetCounts(total, inStock, brands, min, max);
    }

    /**
     * The index a filtered facet query counts over: every index of a scope holds each product once, with the price,
     * stock and brand in its values. The price index, when price bounds make it a key range; otherwise the
     * {@code -rating} index, whose values are small (a category's {@code price} and {@code -updatedAt} entries carry
     * serving JSON).
     */
    private static SortOrder facetSort(ListingFilter f) {
        return f.minPrice() != null || f.maxPrice() != null ? SortOrder.PRICE : SortOrder.RATING_DESC;
    }

    /**
     * Every non-empty category of a category partition's counters, with its product count, by name. Reads the
     * scope totals; when a scope has many brand counters it seeks past them rather than reading them all.
     */
    public List<CategoryCount> categories(ReadOnlyKeyValueStore<Bytes, byte[]> categoryFacets) {
        List<CategoryCount> out = new ArrayList<>();
        Bytes from = null;
        boolean done = false;
        while (!done) {
            done = true;
            try (KeyValueIterator<Bytes, byte[]> it = from == null ? categoryFacets.all()
                    : categoryFacets.range(from, BEYOND_EVERY_CATEGORY)) {
                int brandKeys = 0;
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> counter = it.next();
                    byte[] key = counter.key.get();
                    String category = FacetCounters.scopeOfTotalKey(key);
                    if (category != null) {
                        long count = FacetCounters.total(counter.value);
                        if (count > 0) {
                            out.add(new CategoryCount(category, count));
                        }
                        brandKeys = 0;
                    } else if (++brandKeys >= SKIP_SCOPE_AFTER) {
                        from = Bytes.wrap(withFF(scopePrefixOf(key)));
                        done = false;
                        break;
                    }
                }
            }
        }
        out.sort(Comparator.comparing(CategoryCount::category));
        return List.copyOf(out);
    }

    /**
     * Merges pages of disjoint product sets, each in listing order (the pages of several partitions, or of
     * several instances, for one query), into one page of at most {@code limit} items in listing order.
     * {@code more} is true when any input had more or when items were left over.
     */
    public static ListingPage merge(List<ListingPage> pages, int limit) {
        return ListingPage.merge(pages, limit);
    }

    /**
     * The facets of the union of disjoint product sets (several partitions, or several instances). Unlike
     * {@link FacetCounts#merge}, safe when a part has no prices (an empty part, {@link FacetCounts#EMPTY}).
     */
    public static FacetCounts mergeFacets(Collection<FacetCounts> parts) {
        if (parts.stream().anyMatch(FacetCounts::overBudget)) {
            return FacetCounts.OVER_BUDGET;
        }
        long total = 0;
        long inStock = 0;
        Long min = null;
        Long max = null;
        Map<String, Long> brands = new HashMap<>();
        for (FacetCounts part : parts) {
            total += part.total();
            inStock += part.inStock();
            part.brands().forEach((brand, count) -> brands.merge(brand, count, Long::sum));
            if (part.minPrice() != null) {
                min = min == null ? part.minPrice() : Long.valueOf(Math.min(min, part.minPrice()));
            }
            if (part.maxPrice() != null) {
                max = max == null ? part.maxPrice() : Long.valueOf(Math.max(max, part.maxPrice()));
            }
        }
        return total == 0 ? FacetCounts.EMPTY : new FacetCounts(total, inStock, brands, min, max);
    }

    private static byte[] withFF(byte[] prefix) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + 1);
        out[prefix.length] = (byte) 0xFF;
        return out;
    }

    /** The scope prefix of a facet key: up to and including its terminator. */
    private static byte[] scopePrefixOf(byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (key[i] == 0) {
                return Arrays.copyOf(key, i + 1);
            }
        }
        throw new IllegalArgumentException("facet key without a scope terminator");
    }

    /**
     * Several index ranges read in parallel and merged by their key suffix (sort value, then id), which is the
     * listing order; one range is read as is. Reads at most {@code budget} entries from its iterators in all: when
     * a range would need one more, the merge ends there ({@link #outOfBudget()}), right after the last entry it
     * returned, since that range's next entry is unknown. Every entry up to the last one returned has then been
     * returned, none after it. Closes every iterator it opened.
     */
    private static final class MergedScan implements AutoCloseable {

        private final List<KeyValueIterator<Bytes, byte[]>> open = new ArrayList<>();
        private final PriorityQueue<Run> heads;
        private final long budget;
        private long reads;
        private boolean outOfBudget;
        private int lastPrefixLength;
        private RowReader lastRows;

        MergedScan(List<Range> ranges, long budget) {
            this.budget = budget;
            heads = new PriorityQueue<>(Math.max(1, ranges.size()), MergedScan::compareHeads);
            try {
                for (Range range : ranges) {
                    KeyValueIterator<Bytes, byte[]> it = range.scan().open(range.index());
                    open.add(it);
                    Run run = new Run(it, range.scan().prefix().length, range.rows());
                    if (advance(run)) {
                        heads.add(run);
                    }
                }
            } catch (RuntimeException | Error e) {
                try {
                    close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        boolean hasNext() {
            return !outOfBudget && !heads.isEmpty();
        }

        KeyValue<Bytes, byte[]> next() {
            Run run = heads.poll();
            KeyValue<Bytes, byte[]> entry = run.head;
            lastPrefixLength = run.prefixLength;
            lastRows = run.rows;
            if (advance(run)) {
                heads.add(run);
            }
            return entry;
        }

        /** Whether the merge ended because the budget ran out, not because every range was read to its end. */
        boolean outOfBudget() {
            return outOfBudget;
        }

        /** The prefix length of the index the last entry came from. */
        int lastPrefixLength() {
            return lastPrefixLength;
        }

        /** Where the rows of the last entry's range are. */
        RowReader lastRows() {
            return lastRows;
        }

        private boolean advance(Run run) {
            if (reads >= budget) {
                outOfBudget = true;
                run.head = null;
                return false;
            }
            if (!run.it.hasNext()) {
                run.head = null;
                return false;
            }
            reads++;
            run.head = run.it.next();
            return true;
        }

        private static int compareHeads(Run a, Run b) {
            byte[] x = a.head.key.get();
            byte[] y = b.head.key.get();
            return Arrays.compareUnsigned(x, a.prefixLength, x.length, y, b.prefixLength, y.length);
        }

        @Override
        public void close() {
            RuntimeException failure = null;
            for (KeyValueIterator<Bytes, byte[]> it : open) {
                try {
                    it.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            open.clear();
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** One range of a {@link MergedScan}: its iterator and the entry it would return next. */
    private static final class Run {
        private final KeyValueIterator<Bytes, byte[]> it;
        private final int prefixLength;
        private final RowReader rows;
        private KeyValue<Bytes, byte[]> head;

        Run(KeyValueIterator<Bytes, byte[]> it, int prefixLength, RowReader rows) {
            this.it = it;
            this.prefixLength = prefixLength;
            this.rows = rows;
        }
    }
}
