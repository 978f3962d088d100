package io.catalogviews.topology;

import java.util.List;

/**
 * Tells several {@link EventOutcomeListener}s about every outcome, in the order given (for example the
 * {@link EventCounters} the CLI polls and the metrics that {@code /metrics} exports). Each listener keeps the
 * interface's promise (fast, never throws), so this one does too.
 */
public final class CompositeOutcomeListener implements EventOutcomeListener {

    private final EventOutcomeListener[] listeners;

    private CompositeOutcomeListener(List<EventOutcomeListener> listeners) {
        this.listeners = listeners.toArray(EventOutcomeListener[]::new);
    }

    /** All of {@code listeners}, called in this order. */
    public static EventOutcomeListener of(EventOutcomeListener... listeners) {
        return listeners.length == 1 ? listeners[0] : new CompositeOutcomeListener(List.of(listeners));
    }

    @Override
    public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
        for (EventOutcomeListener listener : listeners) {
            listener.applied(kind, productId, version, occurredAtMs);
        }
    }

    @Override
    public void stale(String productId, long version) {
        for (EventOutcomeListener listener : listeners) {
            listener.stale(productId, version);
        }
    }

    @Override
    public void deadLettered(DeadLetterReason reason) {
        for (EventOutcomeListener listener : listeners) {
            listener.deadLettered(reason);
        }
    }
}
