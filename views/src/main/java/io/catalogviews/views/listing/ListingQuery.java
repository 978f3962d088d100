package io.catalogviews.views.listing;

import io.catalogviews.views.index.SortOrder;

/**
 * One page request.
 *
 * @param after the position of the last item of the previous page (from the cursor), or null for page 1
 */
public record ListingQuery(ListingFilter filter, SortOrder sort, int limit, Position after) {
}
