package io.catalogviews.bench.observe;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the service's stream threads sent to its changelog topics, by topic, from one reading of its {@code /metrics}:
 * the producers' {@code kafka_producer_topic_byte_total} (record batches as sent: compressed, with their headers).
 *
 * <p>Why not the growth of the topics' logs on the broker: the changelogs are compacted, and with the 4 MB segments
 * the service gives its internal topics (docs/benchmarks.md, step 9) the broker's cleaner shrinks them while a churn
 * is measured, so their growth under-counts what was written, down to below zero (2026-12-06).
 */
public final class ChangelogProduced {

    static final String BYTES = "kafka_producer_topic_byte_total";
    private static final String CHANGELOG = "-changelog";

    private ChangelogProduced() {
    }

    /**
     * Bytes sent so far to each changelog topic of {@code applicationId} by its stream threads' producers; null when
     * the reading failed or holds no such series (a service of another version, or not yet writing).
     */
    public static Map<String, Long> bytesByTopic(MetricsScrape metrics, String applicationId) {
        if (metrics == null || !metrics.ok()) {
            return null;
        }
        Map<String, Long> bytes = new TreeMap<>();
        for (PrometheusText.Sample s : metrics.samples()) {
            if (!s.name().equals(BYTES) || !MetricsScrape.ofStreamThread(s.labels()) || !Double.isFinite(s.value())) {
                continue;
            }
            String topic = MetricsScrape.label(s.labels(), "topic");
            if (topic != null && topic.startsWith(applicationId + "-") && topic.endsWith(CHANGELOG)) {
                bytes.merge(topic, Math.round(s.value()), Long::sum);
            }
        }
        return bytes.isEmpty() ? null : bytes;
    }
}
