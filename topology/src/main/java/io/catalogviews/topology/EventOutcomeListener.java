package io.catalogviews.topology;

/**
 * Told what happened to each input record, on the stream thread, right after the record was processed
 * (before its transaction commits: under exactly-once a retried batch may be reported twice).
 * Implementations must be fast and must not throw.
 */
public interface EventOutcomeListener {

    /**
     * @param occurredAtMs the event's {@code occurredAt}, or -1 for a tombstone (which has none)
     */
    void applied(ChangeKind kind, String productId, long version, long occurredAtMs);

    void stale(String productId, long version);

    void deadLettered(DeadLetterReason reason);

    EventOutcomeListener NONE = new EventOutcomeListener() {
        @Override
        public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
        }

        @Override
        public void stale(String productId, long version) {
        }

        @Override
        public void deadLettered(DeadLetterReason reason) {
        }
    };
}
