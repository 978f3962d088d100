package io.catalogviews.service.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** On a real Kafka {@link Metrics} registry, as Kafka Streams keeps its metrics. */
class KafkaStreamsMetersTest {

    private final Metrics kafka = new Metrics();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final KafkaStreamsMeters meters = new KafkaStreamsMeters(kafka::metrics, registry);

    @AfterEach
    void close() {
        meters.close();
        kafka.close();
    }

    private MetricName name(String group, String name, Map<String, String> tags) {
        return kafka.metricName(name, group, "test metric", tags);
    }

    @Test
    void shouldExportMeasurableAndNumericGaugeMetricsWithMicrometerNamesWhenBound() {
        Sensor process = kafka.sensor("process");
        process.add(name("stream-thread-metrics", "process-total", Map.of("thread-id", "t-1")), new CumulativeSum());
        process.record(3);
        kafka.addMetric(name("stream-state-metrics", "estimate-num-keys",
                Map.of("thread-id", "t-1", "task-id", "0_1", "rocksdb-state-id", "product-view")),
                (Gauge<Long>) (config, now) -> 42L);

        meters.refresh();
        String text = registry.scrape();

        assertThat(text).contains("kafka_stream_thread_process_total{thread_id=\"t-1\"} 3.0")
                .contains("kafka_stream_state_estimate_num_keys{rocksdb_state_id=\"product-view\",task_id=\"0_1\","
                        + "thread_id=\"t-1\"} 42.0");
    }

    @Test
    void shouldNeverReadThreadConfinedGaugesWhenBindingOrScraping() {
        kafka.addMetric(name("stream-state-metrics", "uncommitted-bytes", Map.of("task-id", "0_1")),
                (Gauge<Long>) (config, now) -> {
                    throw new AssertionError("uncommitted-bytes must not be read off the stream thread");
                });

        meters.refresh();

        assertThat(registry.scrape()).doesNotContain("uncommitted");
        assertThat(meters.size()).isZero();
    }

    @Test
    void shouldLeaveOutTextGaugesWhenTheyAreNotNumbers() {
        kafka.addMetric(name("stream-metrics", "state", Map.of("client-id", "c-1")),
                (Gauge<String>) (config, now) -> "RUNNING");

        meters.refresh();

        assertThat(meters.size()).isZero();
    }

    @Test
    void shouldRemoveMetersWhenTheirMetricsAreRemoved() {
        MetricName keys = name("stream-state-metrics", "estimate-num-keys", Map.of("task-id", "0_1"));
        kafka.addMetric(keys, (Gauge<Long>) (config, now) -> 1L);
        meters.refresh();
        assertThat(meters.size()).isEqualTo(1);

        kafka.removeMetric(keys);
        meters.refresh();

        assertThat(meters.size()).isZero();
        assertThat(registry.scrape()).doesNotContain("estimate_num_keys");
    }

    @Test
    void shouldKeepTheRichestLabelSetWhenAMetricExistsWithAndWithoutATag() {
        kafka.addMetric(name("consumer-fetch-manager-metrics", "records-lag", Map.of("client-id", "c")),
                (Gauge<Double>) (config, now) -> 1.0);
        kafka.addMetric(name("consumer-fetch-manager-metrics", "records-lag", Map.of("client-id", "c",
                "topic", "t", "partition", "0")), (Gauge<Double>) (config, now) -> 2.0);

        meters.refresh();

        assertThat(registry.scrape()).contains(
                "kafka_consumer_fetch_manager_records_lag{client_id=\"c\",partition=\"0\",topic=\"t\"} 2.0")
                .doesNotContain("kafka_consumer_fetch_manager_records_lag{client_id=\"c\"}");
    }
}
