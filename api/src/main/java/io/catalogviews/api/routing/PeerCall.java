package io.catalogviews.api.routing;

import io.javalin.http.Context;

import java.time.Duration;
import java.util.Optional;

/**
 * What another instance asked of the request being answered, through the internal headers {@link PeerHeaders}
 * verified: honoured only when a peer signed the request. On every other request it is {@link #PUBLIC}: the
 * headers were absent, unsigned, forged or too old, and are ignored (never an error).
 *
 * @param forwarded   {@link Forwarding#FORWARDED_BY}: answer here or refuse, never forward again nor fail over
 * @param replicaRead {@link Forwarding#REPLICA_READ}: answer from this instance's own copy, active or standby
 *                    (unless the request says {@code fresh=true}, which always wins)
 * @param deadline    {@link Forwarding#DEADLINE}, on this instance's clock: when the caller stops waiting; null
 *                    when none was sent
 */
public record PeerCall(boolean forwarded, boolean replicaRead, Deadline deadline) {

    /** A request of a client, or one whose internal headers are not signed by a peer. */
    public static final PeerCall PUBLIC = new PeerCall(false, false, null);

    /** Request attribute under which {@link PeerHeaders#verify} leaves the verdict. */
    static final String ATTRIBUTE = "catalog-views.peer-call";

    /**
     * The verdict {@link PeerHeaders#verify} left on {@code ctx}.
     *
     * @throws IllegalStateException when the server did not install {@link PeerHeaders#verify} as a before-handler
     *                               (a wiring defect: without it forwarded requests would be forwarded again)
     */
    public static PeerCall of(Context ctx) {
        PeerCall call = ctx.attribute(ATTRIBUTE);
        if (call == null) {
            throw new IllegalStateException("PeerHeaders.verify is not installed as a before-handler of this server");
        }
        return call;
    }

    public Optional<Deadline> callerDeadline() {
        return Optional.ofNullable(deadline);
    }

    /** Whether the caller's deadline has passed (false without one). */
    public boolean deadlinePassed() {
        return deadline != null && deadline.passed();
    }

    /** The earlier of {@code budget} from now and the caller's deadline. */
    public Deadline within(Duration budget) {
        Deadline own = Deadline.after(budget);
        return deadline == null || own.atNanos() - deadline.atNanos() < 0 ? own : deadline;
    }
}
