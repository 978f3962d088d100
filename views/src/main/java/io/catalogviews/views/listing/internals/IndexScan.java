package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.Position;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * One key range of one sorted index: the query plan of a listing or a filtered facet query is a list of them
 * (one per brand of the brand filter, else one), read in parallel and merged by (sort value, id).
 *
 * <p>{@code -price} has no index of its own: it reads the range of the {@code price} index backwards
 * ({@link DescendingPriceRuns}), which hands its entries out as {@code -price} keys.
 *
 * @param prefix      the scope prefix ({@link IndexKeys#prefix}); entries' sort value starts right after it
 * @param brand       the brand of a per-brand index, or null for a plain index
 * @param from        inclusive lower key
 * @param to          inclusive upper key
 * @param descending  whether the range is read backwards as the {@code -price} listing
 * @param skipThrough for a backward read after a cursor: the cursor's key in the price index, whose price's
 *                    entries up to it were listed already (null otherwise)
 */
record IndexScan(byte[] prefix, String brand, Bytes from, Bytes to, boolean descending, Bytes skipThrough) {

    /**
     * The scans that hold the candidates of a query: brand indexes when brands are given, a key range on the
     * sort value when the sort is by price and price bounds are given, and a start strictly after {@code after}.
     * Entries still need {@link ListingFilter#accepts} (price bounds under other sorts, {@code inStock}). Scans
     * that cannot hold anything (empty range) are left out.
     */
    static List<IndexScan> plan(String categoryOrNull, ListingFilter filter, SortOrder sort, Position after) {
        boolean descending = sort == SortOrder.PRICE_DESC;
        SortOrder indexed = descending ? SortOrder.PRICE : sort;
        long low = 0L;
        long high = -1L; // 0xFFFF_FFFF_FFFF_FFFF: the largest unsigned sort value
        if (sort.isPriceSort()) {
            if (filter.minPrice() != null) {
                low = indexed.priceSortValue(filter.minPrice());
            }
            if (filter.maxPrice() != null) {
                high = indexed.priceSortValue(filter.maxPrice());
            }
            if (Long.compareUnsigned(low, high) > 0) {
                return List.of();
            }
        }
        List<IndexScan> scans = new ArrayList<>();
        if (filter.brands().isEmpty()) {
            add(scans, IndexKeys.prefix(new IndexKind(indexed, false), categoryOrNull, null), null, low, high,
                    descending, after);
        } else {
            for (String brand : new LinkedHashSet<>(filter.brands())) {
                add(scans, IndexKeys.prefix(new IndexKind(indexed, true), categoryOrNull, brand), brand, low, high,
                        descending, after);
            }
        }
        return scans;
    }

    /** The whole scope of a plain index (not {@code -price}, which has none): every entry of a sort. */
    static IndexScan whole(SortOrder sort, String categoryOrNull) {
        byte[] prefix = IndexKeys.prefix(new IndexKind(sort, false), categoryOrNull, null);
        return new IndexScan(prefix, null, IndexKeys.lowerBound(prefix, 0L), IndexKeys.upperBound(prefix, -1L), false,
                null);
    }

    /** Opens the range in listing order; the caller closes it. */
    KeyValueIterator<Bytes, byte[]> open(ReadOnlyKeyValueStore<Bytes, byte[]> index) {
        return descending ? new DescendingPriceRuns(index, prefix, from, to, skipThrough) : index.range(from, to);
    }

    private static void add(List<IndexScan> scans, byte[] prefix, String brand, long low, long high,
                            boolean descending, Position after) {
        Bytes from = IndexKeys.lowerBound(prefix, low);
        Bytes to = IndexKeys.upperBound(prefix, high);
        Bytes skipThrough = null;
        if (after != null && descending) {
            // Listed so far: every price above the cursor's, and its own price up to the cursor's id.
            long cursorPrice = DescendingPriceRuns.descendingValue(after.sortValue());
            if (Long.compareUnsigned(cursorPrice, high) <= 0) {
                to = IndexKeys.upperBound(prefix, cursorPrice);
                skipThrough = IndexKeys.key(prefix, cursorPrice, after.id());
            }
        } else if (after != null) {
            Bytes next = IndexKeys.after(prefix, after.sortValue(), after.id());
            if (next.compareTo(from) > 0) {
                from = next;
            }
        }
        // An inverted range is empty; RocksDB would also log a warning for it, so never ask.
        if (from.compareTo(to) <= 0) {
            scans.add(new IndexScan(prefix, brand, from, to, descending, skipThrough));
        }
    }
}
