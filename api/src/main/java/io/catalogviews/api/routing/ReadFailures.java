package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.query.QueryFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a read that could not be answered becomes an HTTP status (CONTRACT.md §2 and §4):
 * <ul>
 *   <li>retry later (a local {@link QueryFailure.Kind#RETRY_LATER}, no instance owns the partition now, an owner or
 *       peer that refused with 503 or cannot be reached): 503 {@code unavailable} with a {@code Retry-After} of
 *       1..{@value #MAX_RETRY_AFTER_SECONDS} seconds (a peer's value is clamped to that range);</li>
 *   <li>not hosted here ({@link QueryFailure.Kind#NOT_HOSTED_HERE}): the router asks the new owner once; on an
 *       internal route it is the typed refusal 421 {@value #NOT_HOSTED_CODE}, which tells the caller to refresh
 *       its metadata; on a public route that cannot forward any more it is a 503;</li>
 *   <li>not found: 404 {@code not_found};</li>
 *   <li>a peer that misses the deadline: 504 {@code owner_timeout}; and on the callee, a caller's deadline that
 *       passed before it could answer ({@link PeerHeaders}).</li>
 * </ul>
 * Messages name the view and partition, never a host, and never copy a {@link QueryFailure}'s message (it is
 * logged at debug level instead).
 */
public final class ReadFailures {

    /** HTTP status of the typed internal refusal "this instance does not host (some of) these partitions". */
    public static final int NOT_HOSTED_STATUS = 421;
    public static final String NOT_HOSTED_CODE = "not_hosted";
    /** The longest {@code Retry-After} passed on from a peer: a longer one would keep clients away needlessly. */
    public static final int MAX_RETRY_AFTER_SECONDS = 60;
    private static final Logger LOG = LoggerFactory.getLogger(ReadFailures.class);

    private ReadFailures() {
    }

    /** A local read of {@code view} that failed, on a route that answers the client (never 421). */
    public static ApiException refusal(QueryFailure failure, String view) {
        LOG.debug("Local read of the {} refused: {}", view, failure.message());
        return ApiException.unavailableWhileMoving("the " + view + " cannot be read here now ("
                + (failure.kind() == QueryFailure.Kind.RETRY_LATER ? "rebalancing or restoring" : "moving")
                + "); retry shortly", 1);
    }

    /** A local read of {@code view} that failed, on an internal route: 421 when not hosted, else 503. */
    public static ApiException internalRefusal(QueryFailure failure, String view) {
        return failure.kind() == QueryFailure.Kind.NOT_HOSTED_HERE ? notHosted() : refusal(failure, view);
    }

    /** 503: partition {@code partition} of {@code view} has no instance that can answer now. */
    public static ApiException noOwner(String view, int partition) {
        return ApiException.unavailableWhileMoving("partition " + partition + " of the " + view + " has no instance that can "
                + "answer now (rebalancing or restoring); retry shortly", 1);
    }

    /** The typed internal refusal: these partitions are not (any more) hosted here; refresh the metadata. */
    public static ApiException notHosted() {
        return ApiException.ofStatus(NOT_HOSTED_STATUS, NOT_HOSTED_CODE,
                "this instance does not host the requested partitions (any more); refresh the metadata");
    }

    /**
     * True for an owner's answer that says it cannot answer now: any 5xx but 504 (its own deadline, which is the
     * caller's too). A 500 or 502 comes from an instance that is stopping or broken: another copy may answer.
     */
    public static boolean isPeerRefusal(int status) {
        return status >= 500 && status != 504;
    }

    /** 503 for an owner or peer that answered with a refusal (503 or another status it may not answer). */
    public static ApiException fromPeer(ForwardedResponse response, String view) {
        return ApiException.unavailableWhileMoving("an instance that holds part of the " + view + " cannot answer now; retry "
                + "shortly", retryAfter(response));
    }

    /** 503 for a peer whose answer could not be read (an upgrade in progress?). */
    public static ApiException malformedPeerAnswer(String view) {
        return ApiException.unavailable("an instance that holds part of the " + view + " answered in an unknown "
                + "format (an upgrade in progress?); retry shortly", 1);
    }

    /** 503 when partitions moved again while the read was being answered. */
    public static ApiException movedWhileReading(String view) {
        return ApiException.unavailableWhileMoving("partitions of the " + view + " moved while the read was answered; retry "
                + "shortly", 1);
    }

    /** 503 when the request's deadline passed before every partition answered. */
    public static ApiException outOfTime(String view) {
        return ApiException.unavailable("the " + view + " could not be read from every partition in time "
                + "(partitions are moving); retry shortly", 1);
    }

    /** 503 for a replica that is too far behind its changelog (or whose lag is unknown) to answer. */
    public static ApiException tooFarBehind() {
        return ApiException.unavailableWhileMoving("no replica of this data is close enough to the latest state now; retry "
                + "shortly", 1);
    }

    /** 503 for a peer that cannot be reached (it may be restarting or moving). */
    public static ApiException peerUnreachable() {
        return ApiException.unavailableWhileMoving("the instance that owns the data cannot be reached now; retry shortly", 1);
    }

    /** 504 {@code owner_timeout}: a peer did not answer within the deadline. */
    public static ApiException peerTimeout() {
        return ApiException.ownerTimeout("the instance that owns the data did not answer in time");
    }

    /**
     * 504 {@code owner_timeout} from the callee: the deadline of the instance that asked passed before this one could
     * answer (it stopped; the caller has given up waiting already).
     */
    public static ApiException callerOutOfTime() {
        return ApiException.ownerTimeout("the deadline of the instance that asked passed before this instance could "
                + "answer");
    }

    /** 404 {@code not_found}. */
    public static ApiException notFound(String what) {
        return ApiException.notFound(what + " does not exist");
    }

    /**
     * The {@code Retry-After} seconds of a peer's refusal, clamped to 1..{@value #MAX_RETRY_AFTER_SECONDS}; 1 when
     * absent or unreadable.
     */
    public static int retryAfter(ForwardedResponse response) {
        try {
            int seconds = response.header("Retry-After").map(String::trim).map(Integer::parseInt).orElse(1);
            return Math.max(1, Math.min(MAX_RETRY_AFTER_SECONDS, seconds));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
