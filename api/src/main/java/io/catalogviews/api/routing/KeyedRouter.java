package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Answers a public read of one key ({@link KeyedRead}) wherever its data lives (DESIGN.md decision 10):
 * <ol>
 *   <li>This instance holds the active copy: read it here. If the store says the partition moved
 *       ({@link QueryFailure.Kind#NOT_HOSTED_HERE}), read the metadata again and ask the new owner, once.</li>
 *   <li>Another instance does: forward the request to it ONCE ({@link Forwarding#FORWARDED_BY}) and relay its
 *       answer. A request that was forwarded already is answered here or refused, never forwarded again.</li>
 *   <li>The owner cannot answer (none now, it refused with 503, it cannot be reached, it timed out, or the local
 *       store refused): this instance's own copy of the partition answers if it holds one close enough to its
 *       changelog (during rebalances copies outlive the metadata, see {@code fallBack}), else a standby of the
 *       partition answers ({@link StaleReads}: this instance's copy when it holds
 *       one, else the standby's, asked with {@link Forwarding#REPLICA_READ}), marked {@code X-Stale} with
 *       {@code X-Lag-Records}; never for {@code fresh=true}. If no standby may answer, or it cannot, the answer is
 *       the owner's refusal ({@link ReadFailures}: 503 with {@code Retry-After}, or 504 {@code owner_timeout}).</li>
 *   <li>A request asked with {@link Forwarding#REPLICA_READ} is answered from this instance's own copy if it is close
 *       enough to its changelog, else refused with 503.</li>
 * </ol>
 * The internal headers ({@link Forwarding#FORWARDED_BY}, {@link Forwarding#REPLICA_READ}, {@link Forwarding#DEADLINE})
 * count only on a request a peer signed ({@link PeerCall}); a forwarded request is the read the route parsed, encoded
 * again ({@link KeyedRead#request()}), never the raw request. A caller's deadline that passed is a 504 at once.
 * Each call to a peer waits at most the forward timeout (the owner also the time it may wait for the key's
 * version); the standby gets its own forward timeout, so a read takes at most two of them.
 *
 * <p>A refusal because data is moving ({@link ApiException#whileMoving()}) is not answered at once by the instance a
 * client asked: it routes the read again, with fresh metadata, after {@link #MOVING_RETRY_DELAYS_MS} (1.1 s in all,
 * within the caller's deadline), and answers the refusal only if every attempt is refused. When an instance leaves,
 * every copy of its partitions is briefly unreadable — the leaver's closed, the others restoring or rebalancing — for
 * 0.3–0.9 s (ScaleOutUnderLoadIT: 1.1–1.7 % of reads refused in a clean leave's window without these attempts).
 * A forwarded or replica request is never retried by its callee: its caller does that.
 */
public final class KeyedRouter {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /** Pauses before routing a read again that was refused while data moved (see the class comment). */
    static final long[] MOVING_RETRY_DELAYS_MS = {100, 200, 400, 400};

    private final Instance self;
    private final Peers peers;
    private final StaleReads stale;
    private final Duration forwardTimeout;

    public KeyedRouter(Instance self, Peers peers, StaleReads stale, Duration forwardTimeout) {
        this.self = self;
        this.peers = peers;
        this.stale = stale;
        this.forwardTimeout = forwardTimeout;
    }

    /**
     * Answers {@code ctx} with {@code read}, here or through another instance; see the class comment. The internal
     * headers count only when a peer signed them ({@link PeerCall}); {@code fresh=true} wins over them.
     */
    public <T> void route(Context ctx, KeyedRead<T> read) {
        PeerCall caller = PeerCall.of(ctx);
        if (caller.deadlinePassed()) {
            throw ReadFailures.callerOutOfTime();
        }
        if (caller.replicaRead() && !read.fresh()) {
            complete(ctx, caller, fromOwnCopy(ctx, read, null));
            return;
        }
        complete(ctx, caller, attempt(ctx, caller, read, 0));
    }

    /** Routes {@code read}; routes it again after a pause when it is refused because data moves (class comment). */
    private <T> CompletableFuture<Void> attempt(Context ctx, PeerCall caller, KeyedRead<T> read, int attempt) {
        CompletableFuture<Void> routed;
        try {
            routed = fromOwner(ctx, caller, read, read.ownership().get(), true);
        } catch (ApiException e) {
            routed = CompletableFuture.failedFuture(e);
        }
        if (caller.forwarded() || attempt >= MOVING_RETRY_DELAYS_MS.length
                || (routed.isDone() && !routed.isCompletedExceptionally())) {
            return routed;
        }
        long pause = MOVING_RETRY_DELAYS_MS[attempt];
        return routed.handle((ok, failure) -> {
            if (failure == null) {
                return DONE;
            }
            ApiException refusal = Responses.toApiException(failure);
            if (!refusal.whileMoving() || (caller.deadline() != null && caller.deadline().remaining().toMillis() <= pause)) {
                return CompletableFuture.<Void>failedFuture(refusal);
            }
            return CompletableFuture.supplyAsync(() -> attempt(ctx, caller, read, attempt + 1),
                    CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS)).thenCompose(next -> next);
        }).thenCompose(next -> next);
    }

    private <T> CompletableFuture<Void> fromOwner(Context ctx, PeerCall caller, KeyedRead<T> read,
                                                  Ownership ownership, boolean mayAskAgain) {
        Instance owner = ownership.active().orElse(null);
        if (owner == null) {
            return fallBack(ctx, caller, read, ownership, ReadFailures.noOwner(read.view(), ownership.partition()));
        }
        if (!owner.equals(self)) {
            return forwardOnce(ctx, caller, read, ownership, owner);
        }
        LocalRead<T> local = read.active().get();
        if (local instanceof LocalRead.Answered<T> answered) {
            ctx.header(Forwarding.SERVED_BY, self.hostPort());
            return read.answer().write(ctx, answered.value(), true);
        }
        QueryFailure failure = ((LocalRead.Refused<T>) local).failure();
        if (failure.kind() == QueryFailure.Kind.NOT_HOSTED_HERE && mayAskAgain) {
            // The partition left between metadata and store: whoever holds it now answers, once.
            return fromOwner(ctx, caller, read, read.ownership().get(), false);
        }
        return fallBack(ctx, caller, read, ownership, ReadFailures.refusal(failure, read.view()));
    }

    private <T> CompletableFuture<Void> forwardOnce(Context ctx, PeerCall caller, KeyedRead<T> read,
                                                    Ownership ownership, Instance owner) {
        if (caller.forwarded()) {
            // Metadata moved while the request travelled: refuse, never forward a second time.
            return CompletableFuture.failedFuture(ReadFailures.noOwner(read.view(), ownership.partition()));
        }
        return peers.send(owner, read.request(), forwardTimeout.plus(read.calleeWait()))
                .handle((response, failure) -> {
                    ApiException refusal = failure != null ? Responses.toApiException(failure)
                            : ReadFailures.isPeerRefusal(response.status())
                            ? ReadFailures.fromPeer(response, read.view()) : null;
                    if (refusal == null) {
                        Relay.relay(ctx, response);
                        return DONE;
                    }
                    return fallBack(ctx, caller, read, ownership, refusal);
                }).thenCompose(next -> next);
    }

    /**
     * The owner cannot answer: this instance's own copy first, then a standby's, each marked stale; else the owner's
     * refusal. The own copy is tried whatever the metadata says, because during a rebalance the copies outlive it:
     * Kafka Streams refuses reads of every active task of a stream thread while the thread rebalances (until each
     * task it was given is restored), so an owner answers from its own copy; a standby just promoted here restores
     * what it lacked first; a copy just moved away is often kept as a standby; and the partition's standby in the
     * metadata may be an instance that just left. A forwarded request is answered from the own copy too, but never
     * sent on to a standby (its caller does that).
     */
    private <T> CompletableFuture<Void> fallBack(Context ctx, PeerCall caller, KeyedRead<T> read,
                                                 Ownership ownership, ApiException refusal) {
        if (read.fresh()) {
            return CompletableFuture.failedFuture(refusal);
        }
        ReplicaCopy<T> own = read.anyCopy().get();
        if (own.read() instanceof LocalRead.Answered<T> answered && stale.closeEnough(own.lagRecords())) {
            StaleReads.mark(ctx, own.lagRecords());
            ctx.header(Forwarding.SERVED_BY, self.hostPort());
            return read.answer().write(ctx, answered.value(), false);
        }
        Instance standby = stale.otherStandby(ownership, caller.forwarded()).orElse(null);
        if (standby == null) {
            return CompletableFuture.failedFuture(refusal);
        }
        return peers.send(standby, read.request().toReplica(), forwardTimeout)
                .handle((response, failure) -> {
                    if (failure != null || !stale.accepts(response)) {
                        throw refusal;
                    }
                    Relay.relay(ctx, response);
                    return null;
                });
    }

    /**
     * Answers from this instance's copy, active or standby, marked stale; refuses with {@code refusal} (the owner's,
     * on a failover) or, when null, with why this copy cannot answer (asked as a standby by another instance).
     */
    private <T> CompletableFuture<Void> fromOwnCopy(Context ctx, KeyedRead<T> read, ApiException refusal) {
        ReplicaCopy<T> copy = read.anyCopy().get();
        if (copy.read() instanceof LocalRead.Refused<T> refused) {
            return CompletableFuture.failedFuture(refusal != null ? refusal
                    : ReadFailures.refusal(refused.failure(), read.view()));
        }
        if (!stale.closeEnough(copy.lagRecords())) {
            return CompletableFuture.failedFuture(refusal != null ? refusal : ReadFailures.tooFarBehind());
        }
        StaleReads.mark(ctx, copy.lagRecords());
        ctx.header(Forwarding.SERVED_BY, self.hostPort());
        return read.answer().write(ctx, ((LocalRead.Answered<T>) copy.read()).value(), false);
    }

    /**
     * Ends the request with {@code answered}: at once when it is done (most local reads), else asynchronously, and
     * for a peer's request with a deadline at the latest by then (504: the caller has stopped waiting).
     */
    private static void complete(Context ctx, PeerCall caller, CompletableFuture<Void> answered) {
        if (answered.isDone() && !answered.isCompletedExceptionally()) {
            return;
        }
        if (answered.isDone()) {
            throw Responses.toApiException(answered.handle((ok, failure) -> failure).join());
        }
        Responses.later(ctx, caller.deadline() == null ? answered : caller.deadline().bound(answered));
    }
}
