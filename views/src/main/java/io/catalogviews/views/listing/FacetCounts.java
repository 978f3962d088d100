package io.catalogviews.views.listing;

import java.util.Map;
import java.util.TreeMap;

/**
 * Facets over the distinct products that match a filter, mergeable across partitions.
 *
 * @param brands   every matching brand with its count (the caller sorts and cuts to {@code brandLimit})
 * @param minPrice lowest price in cents, or null when nothing matches
 * @param maxPrice highest price in cents, or null when nothing matches
 */
public record FacetCounts(long total, long inStock, Map<String, Long> brands, Long minPrice, Long maxPrice) {

    public static final FacetCounts EMPTY = new FacetCounts(0, 0, Map.of(), null, null);

    public FacetCounts {
        brands = Map.copyOf(brands);
    }

    /** The facets of the union of two disjoint product sets (different partitions). */
    public FacetCounts merge(FacetCounts o) {
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
