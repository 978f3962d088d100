package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.Position;
import org.apache.kafka.common.utils.Bytes;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * One key range of one sorted index: the query plan of a listing or a filtered facet query is a list of them
 * (one per brand of the brand filter, else one), read in parallel and merged by (sort value, id).
 *
 * @param prefix the scope prefix ({@link IndexKeys#prefix}); entries' sort value starts right after it
 * @param brand  the brand of a per-brand index, or null for a plain index
 * @param from   inclusive lower key
 * @param to     inclusive upper key
 */
record IndexScan(byte[] prefix, String brand, Bytes from, Bytes to) {

    /**
     * The scans that hold the candidates of a query: brand indexes when brands are given, a key range on the
     * sort value when the sort is by price and price bounds are given, and a start strictly after {@code after}.
     * Entries still need {@link ListingFilter#accepts} (price bounds under other sorts, {@code inStock}). Scans
     * that cannot hold anything (empty range) are left out.
     */
    static List<IndexScan> plan(String categoryOrNull, ListingFilter filter, SortOrder sort, Position after) {
        long low = 0L;
        long high = -1L; // 0xFFFF_FFFF_FFFF_FFFF: the largest unsigned sort value
        if (sort.isPriceSort()) {
            Long lowPrice = sort == SortOrder.PRICE ? filter.minPrice() : filter.maxPrice();
            Long highPrice = sort == SortOrder.PRICE ? filter.maxPrice() : filter.minPrice();
            if (lowPrice != null) {
                low = sort.priceSortValue(lowPrice);
            }
            if (highPrice != null) {
                high = sort.priceSortValue(highPrice);
            }
            if (Long.compareUnsigned(low, high) > 0) {
                return List.of();
            }
        }
        List<IndexScan> scans = new ArrayList<>();
        if (filter.brands().isEmpty()) {
            add(scans, IndexKeys.prefix(new IndexKind(sort, false), categoryOrNull, null), null, low,
                    high, after);
        } else {
            for (String brand : new LinkedHashSet<>(filter.brands())) {
                add(scans, IndexKeys.prefix(new IndexKind(sort, true), categoryOrNull, brand), brand,
                        low, high, after);
            }
        }
        return scans;
    }

    /** The whole scope of a plain index: every entry of a sort, for the first (lowest) one. */
    static IndexScan whole(SortOrder sort, String categoryOrNull) {
        byte[] prefix = IndexKeys.prefix(new IndexKind(sort, false), categoryOrNull, null);
        return new IndexScan(prefix, null, IndexKeys.lowerBound(prefix, 0L), IndexKeys.upperBound(prefix, -1L));
    }

    private static void add(List<IndexScan> scans, byte[] prefix, String brand, long low, long high,
                            Position after) {
        Bytes from = IndexKeys.lowerBound(prefix, low);
        if (after != null) {
            Bytes next = IndexKeys.after(prefix, after.sortValue(), after.id());
            if (next.compareTo(from) > 0) {
                from = next;
            }
        }
        Bytes to = IndexKeys.upperBound(prefix, high);
        // An inverted range is empty; RocksDB would also log a warning for it, so never ask.
        if (from.compareTo(to) <= 0) {
            scans.add(new IndexScan(prefix, brand, from, to));
        }
    }
}
