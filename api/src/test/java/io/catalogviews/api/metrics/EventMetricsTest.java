package io.catalogviews.api.metrics;

import io.catalogviews.topology.ChangeKind;
import io.catalogviews.topology.DeadLetterReason;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventMetricsTest {

    private static final long NOW = 1_800_000_000_000L;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final EventMetrics metrics = new EventMetrics(registry, () -> NOW);

    @Test
    void shouldExposeEveryOutcomeAndReasonAtZeroWhenNothingHappenedYet() {
        String text = registry.scrape();

        for (ChangeKind kind : ChangeKind.values()) {
            assertThat(text).contains("catalog_events_total{outcome=\"applied\",reason=\""
                    + kind.name().toLowerCase(java.util.Locale.ROOT) + "\"} 0.0");
        }
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            assertThat(text).contains("catalog_events_total{outcome=\"dead_lettered\",reason=\"" + reason.wireName()
                    + "\"} 0.0");
        }
        assertThat(text).contains("catalog_events_total{outcome=\"stale\",reason=\"version_not_newer\"} 0.0");
    }

    @Test
    void shouldCountOutcomesWithBoundedLabelsWhenEventsAreReported() {
        metrics.applied(ChangeKind.UPSERT, "p-1", 1, NOW - 1000);
        metrics.applied(ChangeKind.UPSERT, "p-2", 1, NOW - 1000);
        metrics.stale("p-1", 1);
        metrics.deadLettered(DeadLetterReason.WRONG_PARTITION);

        String text = registry.scrape();

        assertThat(text).contains("catalog_events_total{outcome=\"applied\",reason=\"upsert\"} 2.0")
                .contains("catalog_events_total{outcome=\"stale\",reason=\"version_not_newer\"} 1.0")
                .contains("catalog_events_total{outcome=\"dead_lettered\",reason=\"wrong_partition\"} 1.0")
                .doesNotContain("p-1", "p-2");
    }

    @Test
    void shouldRecordFreshnessFromOccurredAtWhenAnEventIsApplied() {
        metrics.applied(ChangeKind.PRICE, "p-1", 2, NOW - 30);   // 30 ms: in the 50 ms bucket
        metrics.applied(ChangeKind.STOCK, "p-1", 3, NOW - 2000); // 2 s: in the 2.5 s bucket

        String text = registry.scrape();

        assertThat(text).contains("catalog_event_freshness_seconds_count 2")
                .contains("catalog_event_freshness_seconds_bucket{le=\"0.025\"} 0")
                .contains("catalog_event_freshness_seconds_bucket{le=\"0.05\"} 1")
                .contains("catalog_event_freshness_seconds_bucket{le=\"2.5\"} 2")
                .contains("catalog_event_freshness_seconds_sum 2.03");
    }

    @Test
    void shouldSkipFreshnessWhenTheAppliedRecordIsATombstone() {
        metrics.applied(ChangeKind.TOMBSTONE, "p-1", 3, -1L);

        assertThat(registry.scrape()).contains("catalog_event_freshness_seconds_count 0")
                .contains("catalog_events_total{outcome=\"applied\",reason=\"tombstone\"} 1.0");
    }

    @Test
    void shouldCountZeroFreshnessWhenOccurredAtIsInTheFuture() {
        metrics.applied(ChangeKind.UPSERT, "p-1", 1, NOW + 60_000);

        assertThat(registry.scrape()).contains("catalog_event_freshness_seconds_count 1")
                .contains("catalog_event_freshness_seconds_sum 0.0");
    }
}
