package io.catalogviews.views.listing;

/** One product of a page: where it sits in the sort, and its serving JSON as stored. */
public record ListingItem(Position position, byte[] json) {
}
