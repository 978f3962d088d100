package io.catalogviews.views.listing.internals;

import io.catalogviews.views.query.QueryFailure;

/**
 * A store read that cannot be answered here, already classified: thrown by {@link GuardedStore} in place of
 * the Kafka Streams exception, and turned into a {@link QueryFailure} answer by the query that caught it.
 */
public final class StoreUnavailableException extends RuntimeException {

    private final transient QueryFailure failure;

    public StoreUnavailableException(QueryFailure failure, Throwable cause) {
        super(failure.message(), cause, false, false);
        this.failure = failure;
    }

    public QueryFailure failure() {
        return failure;
    }
}
