package io.catalogviews.bench.observe;

import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.results.ServiceObservation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One reading of the service's {@code GET /metrics} (the contract's Prometheus route), and the figures the harness
 * takes from it: the JVM's garbage collections (Micrometer's {@code jvm_gc_*} series) and the RocksDB block cache
 * ({@code kafka_stream_state_block_cache_*}: Kafka Streams exposes hit ratios only at
 * {@code metrics.recording.level=DEBUG}; usage and capacity at INFO).
 *
 * @param samples every sample, or empty when {@code error} says why there are none
 */
public record MetricsScrape(List<PrometheusText.Sample> samples, String error) {

    static final String BLOCK_CACHE = "kafka_stream_state_block_cache_";
    static final String DATA_LOOKUPS = "catalog_block_cache_data_lookups_total";
    static final String SORTED_RUNS = "catalog_store_sorted_runs";
    static final String IDLE_COMPACTIONS = "catalog_idle_compactions_total";
    static final String NO_HIT_RATIO = "no " + BLOCK_CACHE + "{data,index,filter}_hit_ratio series in /metrics "
            + "(Kafka Streams records them at metrics.recording.level=DEBUG)";
    static final String HIT_RATIO_NOT_RECORDED = BLOCK_CACHE + "{data,index,filter}_hit_ratio are all 0 in /metrics: "
            + "exposed but not recorded (Kafka Streams records them, from RocksDB statistics, only at "
            + "metrics.recording.level=DEBUG)";

    public static MetricsScrape of(String serviceUrl) {
        try (HttpConnection c = HttpConnection.to(serviceUrl, 10_000)) {
            HttpConnection.Response r = c.exchange(HttpConnection.get("/metrics"), null);
            if (r.status() != 200) {
                return new MetricsScrape(List.of(), "GET /metrics answered " + r.status());
            }
            return new MetricsScrape(PrometheusText.parse(new String(r.body(), StandardCharsets.UTF_8)), null);
        } catch (IOException | RuntimeException e) {
            return new MetricsScrape(List.of(), "GET /metrics failed: " + e);
        }
    }

    public boolean ok() {
        return error == null;
    }

    /** Collections from {@code before} to this reading. */
    public ServiceObservation.GcDelta gcSince(MetricsScrape before) {
        return new ServiceObservation.GcDelta(
                Math.round(sum("jvm_gc_pause_seconds_count") - before.sum("jvm_gc_pause_seconds_count")),
                sum("jvm_gc_pause_seconds_sum") - before.sum("jvm_gc_pause_seconds_sum"),
                Math.round(sum("jvm_gc_concurrent_phase_time_seconds_count")
                        - before.sum("jvm_gc_concurrent_phase_time_seconds_count")),
                sum("jvm_gc_concurrent_phase_time_seconds_sum")
                        - before.sum("jvm_gc_concurrent_phase_time_seconds_sum"));
    }

    /**
     * The block cache as this reading shows it, with each view store's data-block lookups since {@code before}
     * (the service's {@code catalog_block_cache_data_lookups_total}; none when it does not export them).
     */
    public ServiceObservation.BlockCacheReading blockCacheSince(MetricsScrape before) {
        ServiceObservation.BlockCacheReading now = blockCache();
        Map<String, Map<String, Double>> then = before.dataLookupCounts();
        Map<String, ServiceObservation.DataLookups> lookups = new TreeMap<>();
        dataLookupCounts().forEach((store, counts) -> {
            Map<String, Double> was = then.getOrDefault(store, Map.of());
            lookups.put(store, ServiceObservation.DataLookups.of(
                    Math.round(counts.getOrDefault("hit", 0.0) - was.getOrDefault("hit", 0.0)),
                    Math.round(counts.getOrDefault("miss", 0.0) - was.getOrDefault("miss", 0.0))));
        });
        return new ServiceObservation.BlockCacheReading(now.hitRatio(), now.hitRatios(), now.usageBytes(),
                now.capacityBytes(), lookups.isEmpty() ? null : lookups, now.note());
    }

    /**
     * Each view store's sorted runs in {@code before} and in this reading, and its idle compactions between them;
     * null when this reading has no {@value #SORTED_RUNS} (a service that does not export it).
     */
    public Map<String, ServiceObservation.StoreRuns> storeRunsSince(MetricsScrape before) {
        Map<String, Double> runs = byStore(SORTED_RUNS);
        if (runs.isEmpty()) {
            return null;
        }
        Map<String, Double> runsBefore = before.byStore(SORTED_RUNS);
        Map<String, Double> compactions = byStore(IDLE_COMPACTIONS);
        Map<String, Double> compactionsBefore = before.byStore(IDLE_COMPACTIONS);
        Map<String, ServiceObservation.StoreRuns> out = new TreeMap<>();
        runs.forEach((store, atEnd) -> out.put(store, new ServiceObservation.StoreRuns(
                Math.round(runsBefore.getOrDefault(store, 0.0)), Math.round(atEnd),
                Math.round(compactions.getOrDefault(store, 0.0) - compactionsBefore.getOrDefault(store, 0.0)))));
        return out;
    }

    /** The finite values of {@code name}'s samples in this reading, summed by their {@code store} label. */
    private Map<String, Double> byStore(String name) {
        Map<String, Double> byStore = new TreeMap<>();
        for (PrometheusText.Sample s : samples) {
            String store = s.name().equals(name) ? label(s.labels(), "store") : null;
            if (store != null && Double.isFinite(s.value())) {
                byStore.merge(store, s.value(), Double::sum);
            }
        }
        return byStore;
    }

    /** Each store's {@code result -> count} in this reading's {@value #DATA_LOOKUPS} samples, in one pass. */
    private Map<String, Map<String, Double>> dataLookupCounts() {
        Map<String, Map<String, Double>> byStore = new TreeMap<>();
        for (PrometheusText.Sample s : samples) {
            String store = s.name().equals(DATA_LOOKUPS) ? label(s.labels(), "store") : null;
            if (store == null) {
                continue;
            }
            Map<String, Double> counts = byStore.computeIfAbsent(store, k -> new TreeMap<>());
            String result = label(s.labels(), "result");
            if (result != null && Double.isFinite(s.value())) {
                counts.merge(result, s.value(), Double::sum);
            }
        }
        return byStore;
    }

    /**
     * Whether a sample's raw label text names one of Kafka Streams' stream threads: Streams names each thread's
     * producer after its thread, so other producers of the JVM are left out.
     */
    static boolean ofStreamThread(String labels) {
        return labels.contains("StreamThread-");
    }

    /** The value of {@code key} in a sample's raw label text ({@code a="x",b="y"}), or null; values hold no quotes. */
    static String label(String labels, String key) {
        // A comma before the text makes the first label look like every other one: one search, no special case.
        String text = "," + labels;
        String start = "," + key + "=\"";
        int at = text.indexOf(start);
        if (at < 0) {
            return null;
        }
        int from = at + start.length();
        int end = text.indexOf('"', from);
        return end < 0 ? null : text.substring(from, end);
    }

    /**
     * The block cache as this reading shows it. Hit ratios that are all exactly 0 are taken as not recorded: Kafka
     * Streams registers the DEBUG-level sensors at INFO too and never records them, while a cache that serves reads
     * hits at least its index and filter blocks.
     */
    public ServiceObservation.BlockCacheReading blockCache() {
        Map<String, Double> ratios = new TreeMap<>();
        boolean anyRatio = false;
        for (String kind : List.of("data", "index", "filter")) {
            double total = 0;
            int n = 0;
            for (PrometheusText.Sample s : samples) {
                if (s.name().equals(BLOCK_CACHE + kind + "_hit_ratio") && Double.isFinite(s.value())) {
                    total += s.value();
                    n++;
                    anyRatio = true;
                }
            }
            if (n > 0) {
                ratios.put(kind, total / n);
            }
        }
        String note = null;
        if (ratios.values().stream().allMatch(r -> r == 0)) {
            note = anyRatio ? HIT_RATIO_NOT_RECORDED : NO_HIT_RATIO;
            ratios.clear();
        }
        Double hitRatio = ratios.isEmpty() ? null
                : ratios.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return new ServiceObservation.BlockCacheReading(hitRatio, ratios.isEmpty() ? null : ratios,
                max(BLOCK_CACHE + "usage"), max(BLOCK_CACHE + "capacity"), null, note);
    }

    private double sum(String name) {
        return PrometheusText.sum(samples, name);
    }

    private Double max(String name) {
        Double max = null;
        for (PrometheusText.Sample s : samples) {
            if (s.name().equals(name) && Double.isFinite(s.value())) {
                max = max == null ? s.value() : Math.max(max, s.value());
            }
        }
        return max;
    }
}
