package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;

import java.util.Optional;

/**
 * The failover rule shared by every keyed read (product by id, batch, category page, category facets): when the
 * active owner of a partition cannot answer, a standby replica of that partition answers instead, marked
 * {@link Forwarding#STALE} with its lag in {@link Forwarding#LAG_RECORDS}, if it is at most
 * {@code maxLagRecords} changelog records behind. Never when the caller asked for {@code fresh=true}, and never
 * for a request that was forwarded already (the instance that forwarded it fails over itself: one hop only).
 * The instance that fails over checks a remote standby's answer by the same rule ({@link #accepts}).
 *
 * @param self          this instance
 * @param maxLagRecords how far behind its changelog a replica may be and still answer
 */
public record StaleReads(Instance self, long maxLagRecords) {

    /** The query parameter by which a caller forbids stale answers. */
    public static final String FRESH_PARAM = "fresh";

    /**
     * The replica to read instead of the active owner: this instance when it holds a standby of the partition,
     * else the first standby in the metadata; empty when none may answer.
     */
    public Optional<Instance> standby(Ownership ownership, boolean fresh, boolean forwarded) {
        if (fresh || forwarded || ownership.standbys().isEmpty()) {
            return Optional.empty();
        }
        if (ownership.standbys().contains(self)) {
            return Optional.of(self);
        }
        return Optional.of(ownership.standbys().get(0));
    }

    /**
     * The first standby of the partition other than this instance (whose own copy the caller reads itself); empty for
     * a request that was forwarded already (its caller fails over) or when there is none.
     */
    public Optional<Instance> otherStandby(Ownership ownership, boolean forwarded) {
        if (forwarded) {
            return Optional.empty();
        }
        return ownership.standbys().stream().filter(standby -> !standby.equals(self)).findFirst();
    }

    /** Whether a replica {@code lagRecords} behind may answer (-1, unknown, may not). */
    public boolean closeEnough(long lagRecords) {
        return lagRecords >= 0 && lagRecords <= maxLagRecords;
    }

    /**
     * Whether a standby's answer may be passed on: it answered from its own copy (marked {@link Forwarding#STALE}),
     * with a lag this instance accepts too, and not with a server error. A product's 404, 409 or 304 from a
     * standby is an answer of its copy; a 503 (too far behind, restoring) or an unmarked answer is not, and the
     * read is refused as if no standby existed.
     */
    public boolean accepts(ForwardedResponse response) {
        return response.status() < 500 && response.header(Forwarding.STALE).filter("true"::equals).isPresent()
                && closeEnough(lagOf(response));
    }

    /** The lag a standby's answer reports, -1 when absent or unreadable. */
    public static long lagOf(ForwardedResponse response) {
        try {
            return response.header(Forwarding.LAG_RECORDS).map(String::trim).map(Long::parseLong).orElse(-1L);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Marks an answer as served by a replica that may lag. */
    public static void mark(Context ctx, long lagRecords) {
        ctx.header(Forwarding.STALE, "true");
        ctx.header(Forwarding.LAG_RECORDS, Long.toString(lagRecords));
    }
}
