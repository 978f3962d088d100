package io.catalogviews.api.health;

/** Whether this instance should receive traffic (contract: {@code GET /health/ready}). */
@FunctionalInterface
public interface Readiness {

    /**
     * True once the instance finished its first restoration and serves HTTP; false before that, in ERROR and
     * during shutdown. A rebalance alone does not make it false.
     */
    boolean isReady();

    /** Why the instance is not ready, for the 503 answer; null for the generic sentence. */
    default String notReadyReason() {
        return null;
    }
}
