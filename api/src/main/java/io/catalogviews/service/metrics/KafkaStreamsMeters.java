package io.catalogviews.service.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Exports the Kafka Streams client metrics ({@link KafkaStreams#metrics()}: threads, tasks, state stores and their
 * RocksDB metrics, and the embedded consumers, producers and admin) as Micrometer meters, named as Micrometer's
 * {@code KafkaStreamsMetrics} binder names them ({@code kafka.<group without -metrics>.<name>}, dashes as dots,
 * so {@code kafka_stream_state_estimate_num_keys} in Prometheus), and picks up new and removed metrics (tasks
 * and stores come and go with rebalances) every refresh.
 *
 * <p>Why not Micrometer's binder: it reads every metric's value on its own thread, and one Kafka Streams 4.4
 * gauge must not be read off the stream thread: {@code uncommitted-bytes} of the transactional state stores
 * reads a native RocksDB {@code WriteBatch} that the stream thread frees at each commit, and reading it
 * concurrently crashed the JVM (SIGSEGV in {@code WriteBatch.getDataSize}). Such metrics ({@link #THREAD_CONFINED})
 * are left out. Measurable metrics and state store gauges are bound without reading them; other gauges are read
 * once, when first seen, to learn whether they are numeric. So values are read only when {@code /metrics} is
 * scraped; the RocksDB property gauges ({@code estimate-num-keys}, …) then read the store's native handle from the
 * scraping thread, exactly as a JMX reporter would.
 */
public final class KafkaStreamsMeters implements AutoCloseable {

    /** Metric names whose values must only be read on the stream thread; never exported. */
    static final Set<String> THREAD_CONFINED = Set.of("uncommitted-bytes");
    private static final Set<String> SKIPPED_GROUPS = Set.of("app-info", "kafka-metrics-count");
    /** Groups whose gauges are all numeric (RocksDB properties among them): bound without reading a value. */
    private static final Set<String> NUMERIC_GROUPS = Set.of("stream-state-metrics");
    private static final Logger LOG = LoggerFactory.getLogger(KafkaStreamsMeters.class);
    private static final ToDoubleFunction<Metric> VALUE = metric -> {
        Object value = metric.metricValue();
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    };

    private final Supplier<Map<MetricName, ? extends Metric>> source;
    private final MeterRegistry registry;
    /** Bound meters with their metrics, held strongly (a FunctionCounter references its object weakly). */
    private final Map<MetricName, Bound> bound = new HashMap<>();
    private final Map<MetricName, Boolean> numeric = new HashMap<>();
    private ScheduledExecutorService scheduler;

    private record Bound(Meter meter, Metric metric) {
    }

    KafkaStreamsMeters(Supplier<Map<MetricName, ? extends Metric>> source, MeterRegistry registry) {
        this.source = source;
        this.registry = registry;
    }

    /** Binds {@code streams}' metrics now and refreshes them every {@code refresh} on a daemon thread. */
    public static KafkaStreamsMeters bind(KafkaStreams streams, MeterRegistry registry, Duration refresh) {
        KafkaStreamsMeters meters = new KafkaStreamsMeters(streams::metrics, registry);
        meters.refresh();
        meters.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-streams-meters");
            t.setDaemon(true);
            return t;
        });
        meters.scheduler.scheduleWithFixedDelay(meters::refreshQuietly, refresh.toMillis(), refresh.toMillis(),
                TimeUnit.MILLISECONDS);
        return meters;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.debug("Refreshing the Kafka Streams meters failed; retrying at the next refresh", e);
        }
    }

    /** Adds meters for new metrics and removes those of metrics that are gone. */
    synchronized void refresh() {
        Map<MetricName, ? extends Metric> current = source.get();
        numeric.keySet().retainAll(current.keySet());
        List<Map.Entry<MetricName, ? extends Metric>> candidates = new ArrayList<>();
        Map<String, Set<String>> tagKeysByName = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : current.entrySet()) {
            MetricName name = e.getKey();
            if (SKIPPED_GROUPS.contains(name.group()) || THREAD_CONFINED.contains(name.name())
                    || !isNumeric(name, e.getValue())) {
                continue;
            }
            candidates.add(e);
            // Kafka has some metrics with and without a topic or partition tag; Prometheus needs one label set per
            // name, so the richest one wins, as in Micrometer's binder.
            tagKeysByName.merge(meterName(name), name.tags().keySet(), (a, b) -> b.size() > a.size() ? b : a);
        }
        Map<MetricName, Metric> wanted = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : candidates) {
            if (tagKeysByName.get(meterName(e.getKey())).equals(e.getKey().tags().keySet())) {
                wanted.put(e.getKey(), e.getValue());
            }
        }
        for (Iterator<Map.Entry<MetricName, Bound>> it = bound.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<MetricName, Bound> e = it.next();
            if (wanted.get(e.getKey()) != e.getValue().metric()) {
                registry.remove(e.getValue().meter());
                it.remove();
            }
        }
        wanted.forEach((name, metric) -> bound.computeIfAbsent(name, n -> new Bound(register(n, metric), metric)));
    }

    private boolean isNumeric(MetricName name, Metric metric) {
        if (metric instanceof KafkaMetric kafkaMetric && kafkaMetric.isMeasurable()
                || NUMERIC_GROUPS.contains(name.group())) {
            return true;
        }
        return numeric.computeIfAbsent(name, n -> metric.metricValue() instanceof Number);
    }

    private Meter register(MetricName name, Metric metric) {
        String meterName = meterName(name);
        List<Tag> tags = new ArrayList<>();
        name.tags().forEach((key, value) -> tags.add(Tag.of(key.replace('-', '.'), value)));
        if (meterName.endsWith("total") || meterName.endsWith("count")) {
            return FunctionCounter.builder(meterName, metric, VALUE).tags(tags)
                    .description(name.description()).register(registry);
        }
        return Gauge.builder(meterName, metric, VALUE).strongReference(true).tags(tags)
                .description(name.description()).register(registry);
    }

    static String meterName(MetricName name) {
        return ("kafka." + name.group() + "." + name.name()).replace("-metrics", "").replace('-', '.');
    }

    /** Meters bound now (for tests). */
    synchronized int size() {
        return bound.size();
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        bound.values().forEach(b -> registry.remove(b.meter()));
        bound.clear();
    }
}
