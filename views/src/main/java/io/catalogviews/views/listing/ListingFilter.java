package io.catalogviews.views.listing;

import java.util.List;

/**
 * The filters of a listing or facet query (CONTRACT.md §2, listing parameters), already validated.
 *
 * @param category the category, or null for the whole catalog
 * @param brands   any of these brands (distinct, sorted ascending); empty for no brand filter
 * @param minPrice inclusive lower price bound in cents, or null
 * @param maxPrice inclusive upper price bound in cents, or null
 * @param inStock  only in-stock ({@code true}) or only out-of-stock ({@code false}) products, or null for both
 */
public record ListingFilter(String category, List<String> brands, Long minPrice, Long maxPrice, Boolean inStock) {

    public ListingFilter {
        // Checked here too, not only at the HTTP edge: the category and brands become index key prefixes, and a
        // control character (0x00 above all) would let one scope's scan run into another's.
        if (category != null && !io.catalogviews.views.ids.CategoryName.isValid(category)) {
            throw new IllegalArgumentException("category must match " + io.catalogviews.views.ids.CategoryName.GRAMMAR);
        }
        brands = List.copyOf(brands);
        for (String brand : brands) {
            if (brand.isEmpty() || brand.codePointCount(0, brand.length()) > 128
                    || brand.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL)) {
                throw new IllegalArgumentException("a brand must have 1..128 characters and no control character");
            }
        }
    }

    public boolean isWholeCatalog() {
        return category == null;
    }

    /** True when no filter narrows the scope (facets can then come from the maintained counters). */
    public boolean isUnfiltered() {
        return brands.isEmpty() && minPrice == null && maxPrice == null && inStock == null;
    }

    /** Whether an entry with these fields passes the price and stock filters (brands are matched by index). */
    public boolean accepts(long priceCents, boolean entryInStock) {
        return (minPrice == null || priceCents >= minPrice) && (maxPrice == null || priceCents <= maxPrice)
                && (inStock == null || inStock == entryInStock);
    }
}
