package io.catalogviews.topology;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Counts applied, stale and dead-lettered events; cheap enough for the hot path. */
public final class EventCounters implements EventOutcomeListener {

    private final LongAdder applied = new LongAdder();
    private final LongAdder stale = new LongAdder();
    private final Map<DeadLetterReason, LongAdder> deadLettered = new EnumMap<>(DeadLetterReason.class);

    public EventCounters() {
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            deadLettered.put(reason, new LongAdder());
        }
    }

    @Override
    public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
        applied.increment();
    }

    @Override
    public void stale(String productId, long version) {
        stale.increment();
    }

    @Override
    public void deadLettered(DeadLetterReason reason) {
        deadLettered.get(reason).increment();
    }

    public long applied() {
        return applied.sum();
    }

    public long stale() {
        return stale.sum();
    }

    public long deadLetteredFor(DeadLetterReason reason) {
        return deadLettered.get(reason).sum();
    }

    public long deadLettered() {
        return deadLettered.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
