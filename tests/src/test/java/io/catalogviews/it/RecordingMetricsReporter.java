package io.catalogviews.it;

import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsContext;
import org.apache.kafka.common.metrics.MetricsReporter;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A Kafka {@link MetricsReporter} that remembers, for every Kafka client that instantiates it, the client kind
 * (its metrics namespace: {@code kafka.producer}, {@code kafka.consumer}, {@code kafka.admin.client},
 * {@code kafka.streams}) and the configuration it was given. Named in a {@code --kafka-config} file, it shows
 * which clients received that file's properties.
 */
public final class RecordingMetricsReporter implements MetricsReporter {

    /** One client: its namespace, {@code client.id} and the configuration it passed to its reporters. */
    public record Seen(String namespace, String clientId, Map<String, ?> configs) {
    }

    private static final Queue<Seen> SEEN = new ConcurrentLinkedQueue<>();
    private volatile Map<String, ?> configs = Map.of();

    public static List<Seen> seen() {
        return List.copyOf(SEEN);
    }

    public static void clear() {
        SEEN.clear();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        this.configs = Collections.unmodifiableMap(new HashMap<>(configs)); // values may be null
    }

    @Override
    public void contextChange(MetricsContext metricsContext) {
        Object clientId = configs.get("client.id");
        SEEN.add(new Seen(metricsContext.contextLabels().get("_namespace"),
                clientId == null ? "" : clientId.toString(), configs));
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
    }

    @Override
    public void metricChange(KafkaMetric metric) {
    }

    @Override
    public void metricRemoval(KafkaMetric metric) {
    }

    @Override
    public void close() {
    }
}
