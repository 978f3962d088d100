package io.catalogviews.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.catalogviews.bench.results.ServiceObservation;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The harness reads {@code GET /metrics} of any deployment it is pointed at ({@code --url}): whatever text comes back,
 * reading the block cache and the stores' sorted runs from it must not fail a run, and what it reports must be a
 * number or nothing.
 */
class MetricsScrapeFuzzTest {

    private static final List<String> PIECES = List.of("catalog_block_cache_data_lookups_total", "{", "}", "\"", ",",
            "=", " ", "\n", "store", "result", "hit", "miss", "product-view", "store=\"", "result=\"", ",store=\"",
            "NaN", "+Inf", "-Inf", "-1", "1e308", "9223372036854775807", "0.5", "#", "\\", "é", "\u0000",
            "kafka_stream_state_block_cache_data_hit_ratio", "kafka_stream_state_block_cache_usage",
            "catalog_store_sorted_runs", "catalog_idle_compactions_total", "category-listings");

    @Test
    void shouldReportNumbersOrNothingWhenMetricsTextIsArbitrary() {
        SplittableRandom random = new SplittableRandom(20261204);
        for (int i = 0; i < 5_000; i++) {
            String beforeText = hostileText(random);
            String afterText = hostileText(random);
            assertThatCode(() -> {
                MetricsScrape before = new MetricsScrape(PrometheusText.parse(beforeText), null);
                MetricsScrape after = new MetricsScrape(PrometheusText.parse(afterText), null);
                ServiceObservation.BlockCacheReading reading = after.blockCacheSince(before);
                Map<String, ServiceObservation.DataLookups> lookups = reading.dataLookups();
                if (lookups != null) {
                    assertThat(lookups.values()).allSatisfy(l -> assertThat(l.hitRatio() == null
                            || Double.isFinite(l.hitRatio())).as("hit ratio %s", l.hitRatio()).isTrue());
                }
                Map<String, ServiceObservation.StoreRuns> runs = after.storeRunsSince(before);
                if (runs != null) {
                    assertThat(runs).as("stores with sorted runs").isNotEmpty().doesNotContainKey(null);
                }
            }).as("metrics text before:%n%s%nafter:%n%s", beforeText, afterText).doesNotThrowAnyException();
        }
    }

    @Test
    void shouldFindNoLabelWhenLabelTextIsArbitrary() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            String labels = hostileText(random).replace("\n", "");
            String value = MetricsScrape.label(labels, "store");
            // A value found is always the text between the label's opening quote and the next quote.
            assertThat(value == null || labels.contains("store=\"" + value + "\""))
                    .as("label %s in %s", value, labels).isTrue();
        }
    }

    private static String hostileText(SplittableRandom random) {
        StringBuilder text = new StringBuilder();
        int pieces = random.nextInt(40);
        for (int i = 0; i < pieces; i++) {
            if (random.nextInt(5) == 0) {
                text.append((char) random.nextInt(0x20, 0x7f));
            } else {
                text.append(PIECES.get(random.nextInt(PIECES.size())));
            }
        }
        return text.toString();
    }
}
