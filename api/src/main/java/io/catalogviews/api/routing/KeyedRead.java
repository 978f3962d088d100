package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One read of the data of one key (a product id, a category) for a public request, as a handler gives it to the
 * {@link KeyedRouter}: who holds the key's partition, how to read it here, and how to write the answer.
 *
 * @param view       the view read, for messages ("product view")
 * @param request    the same read as a request to another instance, built from the parsed parameters
 * @param ownership  who holds the key's partition now; asked again when the local store says it moved
 * @param active     reads this instance's active copy; never throws for a store failure
 * @param anyCopy    reads this instance's copy, active or standby, with its lag (failover reads)
 * @param answer     writes the answer read here
 * @param fresh      {@code fresh=true}: the owner's answer or a refusal, never a standby's
 * @param calleeWait how long the owner may wait before answering ({@code waitMs}); added to its deadline
 */
public record KeyedRead<T>(String view, PeerRequest request, Supplier<Ownership> ownership,
                           Supplier<LocalRead<T>> active, Supplier<ReplicaCopy<T>> anyCopy, Answer<T> answer,
                           boolean fresh, Duration calleeWait) {

    /** Writes the answer for a value read here; {@code X-Served-By} (and the stale marks) are set already. */
    @FunctionalInterface
    public interface Answer<T> {

        /**
         * @param fromActive whether the value comes from the active copy (only then may the answer wait, for
         *                   {@code minVersion}); otherwise from a standby, answered at once
         * @return completes once the answer is written; may fail with an
         *         {@link io.catalogviews.api.http.ApiException}
         */
        CompletableFuture<Void> write(Context ctx, T value, boolean fromActive);
    }

    /** A read that answers at once, may be served by a standby and makes the owner wait for nothing. */
    public static <T> KeyedRead<T> of(String view, PeerRequest request, Supplier<Ownership> ownership,
                                      Supplier<LocalRead<T>> active, Supplier<ReplicaCopy<T>> anyCopy,
                                      Answer<T> answer) {
        return new KeyedRead<>(view, request, ownership, active, anyCopy, answer, false, Duration.ZERO);
    }

    public KeyedRead<T> fresh(boolean fresh) {
        return new KeyedRead<>(view, request, ownership, active, anyCopy, answer, fresh, calleeWait);
    }

    public KeyedRead<T> calleeWait(Duration wait) {
        return new KeyedRead<>(view, request, ownership, active, anyCopy, answer, fresh, wait);
    }
}
