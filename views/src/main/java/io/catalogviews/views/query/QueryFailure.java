package io.catalogviews.views.query;

/**
 * Why a query could not be answered here, and what the caller should do about it.
 *
 * @param kind    what to do next
 * @param message a sentence naming the store and partition; safe to log, not meant for HTTP clients
 */
public record QueryFailure(Kind kind, String message) {

    public enum Kind {
        /**
         * The data lives here but cannot be read right now (rebalancing, restoring, starting, shutting
         * down). Retry after a short pause; do not ask another instance.
         */
        RETRY_LATER,
        /**
         * This instance does not host the partition (any more): refresh the metadata and ask the instance
         * that owns it now.
         */
        NOT_HOSTED_HERE
    }

    public static QueryFailure retryLater(String message) {
        return new QueryFailure(Kind.RETRY_LATER, message);
    }

    public static QueryFailure notHostedHere(String message) {
        return new QueryFailure(Kind.NOT_HOSTED_HERE, message);
    }
}
