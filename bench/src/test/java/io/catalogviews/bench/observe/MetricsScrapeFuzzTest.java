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
 * reading the block cache, the stores' sorted runs and the changelog bytes sent from it must not fail a run, and what
 * it reports must be a number or nothing.
 */
class MetricsScrapeFuzzTest {

    private static final List<String> PIECES = List.of("catalog_block_cache_data_lookups_total", "{", "}", "\"", ",",
            "=", " ", "\n", "store", "result", "hit", "miss", "product-view", "store=\"", "result=\"", ",store=\"",
            "NaN", "+Inf", "-Inf", "-1", "1e308", "9223372036854775807", "0.5", "#", "\\", "é", "\u0000",
            "kafka_stream_state_block_cache_data_hit_ratio", "kafka_stream_state_block_cache_usage",
            "catalog_store_sorted_runs", "catalog_idle_compactions_total", "category-listings",
            "kafka_stream_thread_commit_total", "kafka_producer_flush_time_ns_total",
            "kafka_producer_txn_send_offsets_time_ns_total", "kafka_producer_txn_commit_time_ns_total",
            "thread_id=\"app-StreamThread-1\"", "client_id=\"app-StreamThread-2-producer\"",
            ChangelogProduced.BYTES, "topic=\"app-product-view-changelog\"", ",topic=\"app-", "-changelog\"");

    @Test
    void shouldReportNumbersOrNothingWhenMetricsTextIsArbitrary() {
        // The commit times (CommitTimes) come from the same text and must hold the same promise.
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
                assertNumbersOrNothing(CommitTimes.between(before, after, 1 + random.nextInt(30)));
                Map<String, Long> sent = ChangelogProduced.bytesByTopic(after, "app");
                if (sent != null) {
                    assertThat(sent).as("changelog topics sent to").isNotEmpty().doesNotContainKey(null)
                            .allSatisfy((topic, bytes) -> assertThat(topic).startsWith("app-").endsWith("-changelog"));
                }
            }).as("metrics text before:%n%s%nafter:%n%s", beforeText, afterText).doesNotThrowAnyException();
        }
    }

    @Test
    void shouldReportCommitTimesAsNumbersOrNothingWhenCommitSeriesHoldArbitraryValues() {
        SplittableRandom random = new SplittableRandom(20261205);
        List<String> names = List.of(CommitTimes.COMMITS, CommitTimes.FLUSH, CommitTimes.OFFSETS, CommitTimes.END);
        List<String> labels = List.of("thread_id=\"app-StreamThread-1\"", "thread_id=\"app-StreamThread-2\"",
                "client_id=\"app-StreamThread-1-producer\"", "client_id=\"other-producer\"", "", "StreamThread-");
        List<String> values = List.of("NaN", "+Inf", "-Inf", "-1", "0", "1e308", "-1e308", "9223372036854775807",
                "4.9E-324", "12", "3.5e9", "x");
        int reported = 0;
        for (int i = 0; i < 5_000; i++) {
            String[] texts = new String[2];
            for (int t = 0; t < 2; t++) {
                StringBuilder text = new StringBuilder();
                for (int line = random.nextInt(12); line > 0; line--) {
                    text.append(names.get(random.nextInt(names.size()))).append('{')
                            .append(labels.get(random.nextInt(labels.size()))).append("} ")
                            .append(random.nextBoolean() ? values.get(random.nextInt(values.size()))
                                    : Double.toString(random.nextDouble(-1e3, 1e12)))
                            .append('\n');
                }
                texts[t] = text.toString();
            }
            double seconds = random.nextInt(4) == 0 ? -random.nextDouble(100) : random.nextDouble(1e-6, 1e4);
            CommitTimes commits = CommitTimes.between(new MetricsScrape(PrometheusText.parse(texts[0]), null),
                    new MetricsScrape(PrometheusText.parse(texts[1]), null), seconds);
            assertNumbersOrNothing(commits);
            reported += commits == null ? 0 : 1;
        }
        assertThat(reported).as("readings that gave commit times").isGreaterThan(500);
    }

    private static void assertNumbersOrNothing(CommitTimes commits) {
        if (commits == null) {
            return;
        }
        assertThat(commits.threads()).isPositive();
        assertThat(commits.commits()).isNotNegative();
        assertThat(List.of(commits.flushMs(), commits.offsetsMs(), commits.endMs(), commits.perCommitMs(),
                commits.commitsPerThreadSecond())).allSatisfy(ms -> assertThat(ms).isNotNegative().isFinite());
        assertThat(commits.blockedShare()).isBetween(0.0, 1.0);
        assertThat(commits.describe()).startsWith("commits: ");
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
