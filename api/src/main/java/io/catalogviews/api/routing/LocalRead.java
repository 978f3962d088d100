package io.catalogviews.api.routing;

import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.QueryFailure;

import java.util.List;

/**
 * What a read of this instance's own stores gave the router: the value to answer with, or the typed reason it
 * could not be read here ({@link ReadFailures} says what each reason becomes).
 */
public sealed interface LocalRead<T> {

    /** The stores answered (a missing product is an answer too). */
    record Answered<T>(T value) implements LocalRead<T> {
    }

    /** The stores could not answer; {@link QueryFailure#kind()} says whether to retry or ask another instance. */
    record Refused<T>(QueryFailure failure) implements LocalRead<T> {
    }

    static <T> LocalRead<T> of(ListingResult<T> result) {
        return result instanceof ListingResult.Ok<T> ok ? new Answered<>(ok.value())
                : new Refused<>(((ListingResult.Failed<T>) result).failure());
    }

    static LocalRead<ProductLookup> of(ProductLookup lookup) {
        return lookup instanceof ProductLookup.Failed failed ? new Refused<>(failed.failure()) : new Answered<>(lookup);
    }

    /** All lookups, or the first failure among them: a part of a batch is answered whole or not at all. */
    static LocalRead<List<ProductLookup>> ofAll(List<ProductLookup> lookups) {
        for (ProductLookup lookup : lookups) {
            if (lookup instanceof ProductLookup.Failed failed) {
                return new Refused<>(failed.failure());
            }
        }
        return new Answered<>(lookups);
    }
}
