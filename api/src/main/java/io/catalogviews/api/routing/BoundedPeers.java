package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.routing.Instance;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps the calls to other instances in flight at once (forwards, the parts of a scatter-gather, standby reads):
 * each holds a connection and a buffered answer until its peer answers or its deadline passes, so without a cap a
 * slow peer lets them pile up. Over the cap a call fails at once with 503 {@code unavailable} and
 * {@code Retry-After: 1}, which the routers pass on like any peer that cannot answer.
 */
public final class BoundedPeers implements Peers {

    private final Peers peers;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();

    public BoundedPeers(Peers peers, int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("at least one call to another instance must be allowed, not "
                    + maxInFlight);
        }
        this.peers = peers;
        this.maxInFlight = maxInFlight;
    }

    @Override
    public CompletableFuture<ForwardedResponse> send(Instance target, PeerRequest request, Duration timeout) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return CompletableFuture.failedFuture(ApiException.unavailable("too many reads are waiting for other "
                    + "instances (limit " + maxInFlight + "); retry shortly", 1));
        }
        CompletableFuture<ForwardedResponse> call;
        try {
            call = peers.send(target, request, timeout);
        } catch (RuntimeException | Error e) {
            inFlight.decrementAndGet();
            throw e;
        }
        return call.whenComplete((response, failure) -> inFlight.decrementAndGet());
    }

    /** Calls in flight now. */
    public int inFlight() {
        return inFlight.get();
    }
}
