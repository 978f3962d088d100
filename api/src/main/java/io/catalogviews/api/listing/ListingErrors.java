package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.views.query.QueryFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The contract errors of the listing routes. Messages name no host and copy no text of other layers (a
 * {@link QueryFailure}'s message is logged, not sent).
 */
final class ListingErrors {

    private static final Logger LOG = LoggerFactory.getLogger(ListingErrors.class);

    private ListingErrors() {
    }

    /** 503: some partition has no active instance now (rebalancing, starting), or metadata moved. */
    static ApiException noOwner() {
        return ApiException.unavailable("part of the catalog has no instance that can answer now (rebalancing or "
                + "restoring); retry shortly", 1);
    }

    /** 503 for a local read that failed. */
    static ApiException unavailable(QueryFailure failure) {
        LOG.debug("Local listing read refused: {}", failure.message());
        return ApiException.unavailable("the listing cannot be read now ("
                + (failure.kind() == QueryFailure.Kind.RETRY_LATER ? "rebalancing or restoring" : "moving")
                + "); retry shortly", 1);
    }

    /** 503 passed on from an owner that refused a forwarded category read, with its Retry-After. */
    static ApiException refused(ForwardedResponse response) {
        return ApiException.unavailable("the instance that owns this category cannot answer now (rebalancing or "
                + "restoring); retry shortly", retryAfter(response));
    }

    /** The typed internal refusal: these partitions are not (any more) hosted here; refresh metadata. */
    static ApiException notHosted() {
        return ApiException.ofStatus(ScatterGather.NOT_HOSTED_STATUS, ScatterGather.NOT_HOSTED_CODE,
                "this instance does not host the requested partitions (any more); refresh the metadata");
    }

    /** The Retry-After seconds of a refusal, 1 when absent or unreadable, at most 60. */
    static int retryAfter(ForwardedResponse response) {
        try {
            int seconds = response.header("Retry-After").map(String::trim).map(Integer::parseInt).orElse(1);
            return Math.max(1, Math.min(60, seconds));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
