package io.catalogviews.api.metrics;

import io.catalogviews.topology.ChangeKind;
import io.catalogviews.topology.DeadLetterReason;
import io.catalogviews.topology.EventOutcomeListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The view's event metrics, told by the topology on the stream thread (see {@link EventOutcomeListener}):
 * <ul>
 *   <li>{@code catalog_events_total{outcome,reason}}: {@code outcome="applied"} with the change kind as reason
 *       ({@code upsert}, {@code price}, {@code stock}, {@code delete}, {@code tombstone}); {@code outcome="stale"}
 *       with reason {@value #STALE_REASON}; {@code outcome="dead_lettered"} with the contract's {@code dlq.reason}
 *       ({@code undecodable}, {@code key_mismatch}, …). Every series exists from the start, at 0.</li>
 *   <li>{@code catalog_event_freshness_seconds}: histogram of the time from an event's {@code occurredAt} to
 *       its being applied (tombstones carry no {@code occurredAt} and are skipped; an {@code occurredAt} in the
 *       future counts as 0).</li>
 * </ul>
 * Counters are resolved once, so the hot path only increments. Under exactly-once a batch that is retried
 * after a failure is reported again, so these counts may exceed the records applied (they count processing).
 */
public final class EventMetrics implements EventOutcomeListener {

    public static final String EVENTS = "catalog.events";
    public static final String FRESHNESS = "catalog.event.freshness";
    /** The reason label of stale events: their version is not newer than the one the view remembers. */
    public static final String STALE_REASON = "version_not_newer";

    private static final Duration[] FRESHNESS_BUCKETS = {
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1),
            Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofHours(1), Duration.ofHours(6),
            Duration.ofDays(1)};

    private final Map<ChangeKind, Counter> applied = new EnumMap<>(ChangeKind.class);
    private final Counter stale;
    private final Map<DeadLetterReason, Counter> deadLettered = new EnumMap<>(DeadLetterReason.class);
    private final Timer freshness;
    private final LongSupplier clockMs;

    public EventMetrics(MeterRegistry registry) {
        this(registry, System::currentTimeMillis);
    }

    EventMetrics(MeterRegistry registry, LongSupplier clockMs) {
        this.clockMs = clockMs;
        for (ChangeKind kind : ChangeKind.values()) {
            applied.put(kind, counter(registry, "applied", kind.name().toLowerCase(Locale.ROOT)));
        }
        stale = counter(registry, "stale", STALE_REASON);
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            deadLettered.put(reason, counter(registry, "dead_lettered", reason.wireName()));
        }
        freshness = Timer.builder(FRESHNESS)
                .description("Time from an event's occurredAt to its being applied to the views")
                .serviceLevelObjectives(FRESHNESS_BUCKETS)
                .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String outcome, String reason) {
        return Counter.builder(EVENTS)
                .description("Input records by outcome (applied, stale, dead_lettered) and reason")
                .tag("outcome", outcome).tag("reason", reason)
                .register(registry);
    }

    @Override
    public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
        applied.get(kind).increment();
        if (occurredAtMs >= 0) {
            freshness.record(Math.max(0, clockMs.getAsLong() - occurredAtMs), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void stale(String productId, long version) {
        stale.increment();
    }

    @Override
    public void deadLettered(DeadLetterReason reason) {
        deadLettered.get(reason).increment();
    }
}
