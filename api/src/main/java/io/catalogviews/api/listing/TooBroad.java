package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.listing.ListingFilter;

/**
 * The refusal of a facet query whose scan would examine more index entries than its budget (CONTRACT.md §4,
 * "Bounded work"): 422 {@code query_too_broad}, naming the filter that narrows the scan. Filtered facets scan the
 * price index over the query's brands (one range per brand) within its price bounds, so the scan shrinks with
 * fewer brands or a narrower price range; {@code inStock} filters scanned entries and shrinks nothing.
 */
final class TooBroad {

    private TooBroad() {
    }

    /**
     * {@code brand} unless exactly one brand is given (name one brand, or fewer), else the price bound to add or
     * tighten: {@code minPrice} when absent, otherwise {@code maxPrice}.
     */
    static ApiException facets(ListingFilter filter) {
        String parameter = filter.brands().size() != 1 ? "brand"
                : filter.minPrice() == null ? "minPrice" : "maxPrice";
        return ApiException.queryTooBroad(parameter, "counting these facets would examine more index entries than "
                + "one query may; narrow parameter '" + parameter + "' (fewer brands or a narrower price range) and "
                + "ask again");
    }
}
