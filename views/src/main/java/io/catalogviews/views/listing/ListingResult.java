package io.catalogviews.views.listing;

import io.catalogviews.views.query.QueryFailure;

/** The answer of a local listing query, or why this instance could not give it. */
public sealed interface ListingResult<T> {

    record Ok<T>(T value) implements ListingResult<T> {
    }

    record Failed<T>(QueryFailure failure) implements ListingResult<T> {
    }
}
