package io.catalogviews.views.listing;

/** A category holding at least one product, and how many. */
public record CategoryCount(String category, long count) {
}
