package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;

/**
 * Told about every call the {@link Forwarder} makes to another instance, once it ends, on the thread that
 * completes it. Used for the forwarding metrics. Implementations must be fast and must not throw.
 */
@FunctionalInterface
public interface ForwardObserver {

    /** How a forwarded call ended; a bounded set, usable as a metric label ({@link #label()}). */
    enum Outcome {
        /** The target answered 2xx or 304. */
        SUCCESS,
        /** The target answered 4xx (for example 404, or 421 when a partition moved away from it). */
        CLIENT_ERROR,
        /** The target answered 5xx (for example 503 while it restores). */
        SERVER_ERROR,
        /** The target did not answer within the forwarding timeout. */
        TIMEOUT,
        /** The target could not be reached (connection refused or failed). */
        UNREACHABLE;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Outcome ofStatus(int status) {
            return status >= 500 ? SERVER_ERROR : status >= 400 ? CLIENT_ERROR : SUCCESS;
        }
    }

    /**
     * @param target        the instance called (always one from Kafka Streams metadata)
     * @param outcome       how the call ended
     * @param durationNanos from sending the request to its end
     */
    void forwarded(Instance target, Outcome outcome, long durationNanos);

    ForwardObserver NONE = (target, outcome, durationNanos) -> { };
}
