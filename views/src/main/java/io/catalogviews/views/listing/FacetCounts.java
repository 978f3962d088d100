package io.catalogviews.views.listing;

import java.util.Map;
import java.util.TreeMap;

/**
 * Facets over the distinct products that match a filter, mergeable across partitions.
 *
 * @param brands     every matching brand with its count (the caller sorts and cuts to {@code brandLimit})
 * @param minPrice   lowest price in cents, or null when nothing matches
 * @param maxPrice   highest price in cents, or null when nothing matches
 * @param overBudget true when counting would examine more index entries than a scan may (then nothing is counted,
 *                   and the query must be narrowed): {@link #OVER_BUDGET}
 */
public record FacetCounts(long total, long inStock, Map<String, Long> brands, Long minPrice, Long maxPrice,
                          boolean overBudget) {

    public static final FacetCounts EMPTY = new FacetCounts(0, 0, Map.of(), null, null);

    /** Facets that were not counted: a scan would have examined more entries than its budget. */
    public static final FacetCounts OVER_BUDGET = new FacetCounts(0, 0, Map.of(), null, null, true);

    /** Counted facets. */
    public FacetCounts(long total, long inStock, Map<String, Long> brands, Long minPrice, Long maxPrice) {
        this(total, inStock, brands, minPrice, maxPrice, false);
    }

    public FacetCounts {
        brands = Map.copyOf(brands);
    }

    /** The facets of the union of two disjoint product sets (different partitions); over budget if either is. */
    public FacetCounts merge(FacetCounts o) {
        if (overBudget || o.overBudget) {
            return OVER_BUDGET;
        }
        Map<String, Long> merged = new TreeMap<>(brands);
        o.brands.forEach((brand, count) -> merged.merge(brand, count, Long::sum));
        return new FacetCounts(total + o.total, inStock + o.inStock, merged, pick(minPrice, o.minPrice, true),
                pick(maxPrice, o.maxPrice, false));
    }

    private static Long pick(Long a, Long b, boolean min) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return min ? Long.valueOf(Math.min(a, b)) : Long.valueOf(Math.max(a, b));
    }
}
