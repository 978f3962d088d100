package io.catalogviews.views.listing;

import java.util.List;

/**
 * Up to {@code limit} items in listing order.
 *
 * @param more true exactly when a further item matches after the last one (then the page is full)
 */
public record ListingPage(List<ListingItem> items, boolean more) {
}
