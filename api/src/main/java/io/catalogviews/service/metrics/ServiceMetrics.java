package io.catalogviews.service.metrics;

import io.catalogviews.api.metrics.ApiMetrics;
import io.catalogviews.api.metrics.EventMetrics;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.store.IdleCompactions;
import io.catalogviews.views.streams.BlockCacheCounters;
import io.catalogviews.views.streams.RestoreProgress;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * All metrics of one instance, in one Prometheus registry that {@code GET /metrics} renders: the view's event
 * metrics ({@link EventMetrics}), the HTTP and forwarding metrics ({@link ApiMetrics}), the Kafka Streams
 * client metrics ({@link KafkaStreamsMeters}: threads, tasks, consumers, producers and the
 * RocksDB state store metrics that the recording level allows: {@code metrics.recording.level=INFO}, the
 * default, gives the RocksDB property metrics such as {@code estimate-num-keys} and {@code block-cache-usage};
 * {@code DEBUG} adds the RocksDB statistics), and the JVM's. Closed with the instance.
 */
public final class ServiceMetrics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceMetrics.class);
    /** How often new Kafka Streams metrics (new tasks, stores) are picked up. */
    public static final Duration STREAMS_REFRESH = Duration.ofSeconds(10);

    private final PrometheusMeterRegistry registry;
    private final EventMetrics events;
    private final ApiMetrics api;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private ServiceMetrics(PrometheusMeterRegistry registry) {
        this.registry = registry;
        this.events = new EventMetrics(registry);
        this.api = new ApiMetrics(registry);
    }

    /** A registry with the JVM metrics bound. */
    public static ServiceMetrics create() {
        ServiceMetrics metrics = new ServiceMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        new ClassLoaderMetrics().bindTo(metrics.registry);
        new JvmMemoryMetrics().bindTo(metrics.registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(metrics.registry);
        metrics.closeables.add(gc);
        JvmThreadMetrics threads = new JvmThreadMetrics();
        threads.bindTo(metrics.registry);
        new ProcessorMetrics().bindTo(metrics.registry);
        new UptimeMetrics().bindTo(metrics.registry);
        new FileDescriptorMetrics().bindTo(metrics.registry);
        return metrics;
    }

    /** Exports {@code streams}' client metrics, picking up new ones every {@code refresh}. */
    public void bindKafkaStreams(KafkaStreams streams, Duration refresh) {
        closeables.add(KafkaStreamsMeters.bind(streams, registry, refresh));
    }

    /** {@code catalog_restore_remaining_records}: changelog records still to replay on this instance. */
    public void bindRestoreProgress(RestoreProgress progress) {
        Gauge.builder("catalog_restore_remaining_records", progress, RestoreProgress::remainingRecords)
                .description("Changelog records this instance still has to replay to restore its stores (estimate)")
                .register(registry);
    }

    /**
     * {@code catalog_facet_answers_total{source="memory"|"store"}}: facet requests of a category answered from the
     * facets kept since the category's last commit, or counted from the store. Micrometer holds what it reads only
     * weakly, so the cache itself is registered (the service holds it), never a method reference of it.
     */
    public void bindFacetCache(io.catalogviews.views.listing.internals.FacetCache cache) {
        String description = "Facet answers of a category read here: kept in memory since its last commit, or "
                + "counted from the store";
        io.micrometer.core.instrument.FunctionCounter.builder("catalog_facet_answers", cache,
                        io.catalogviews.views.listing.internals.FacetCache::hits)
                .tag("source", "memory").description(description).register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("catalog_facet_answers", cache,
                        io.catalogviews.views.listing.internals.FacetCache::misses)
                .tag("source", "store").description(description).register(registry);
    }

    /**
     * {@code catalog_page_answers_total{scope="catalog"|"category",source="memory"|"store"}}: pages of this
     * instance's partitions (whole-catalog pages, or category pages) answered from the pages kept since a commit
     * last wrote where they were read, or read from the stores.
     */
    public void bindPageCache(io.catalogviews.views.listing.internals.PageCache cache, String scope) {
        String description = "Listing pages of this instance's partitions: kept in memory since a commit last wrote "
                + "where they were read, or read from the stores";
        io.micrometer.core.instrument.FunctionCounter.builder("catalog_page_answers", cache,
                        io.catalogviews.views.listing.internals.PageCache::hits)
                .tag("scope", scope).tag("source", "memory").description(description).register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("catalog_page_answers", cache,
                        io.catalogviews.views.listing.internals.PageCache::misses)
                .tag("scope", scope).tag("source", "store").description(description).register(registry);
    }

    /**
     * {@code catalog_block_cache_data_lookups_total{store=…,result="hit"|"miss"}}: data blocks the reads of each view
     * store found in RocksDB's block cache, or had to read from the table files ({@link BlockCacheCounters}). The
     * store names are constants, so Micrometer's weak reference to them holds.
     */
    public void bindBlockCacheCounters() {
        String description = "Data-block lookups of a view store's reads (all its partitions in this instance): found "
                + "in RocksDB's block cache (hit) or read from its table files (miss)";
        for (String store : List.of(StoreNames.PRODUCTS, StoreNames.PRODUCT_DELETIONS)) {
            io.micrometer.core.instrument.FunctionCounter.builder("catalog_block_cache_data_lookups", store,
                            BlockCacheCounters::dataHits)
                    .tag("store", store).tag("result", "hit").description(description).register(registry);
            io.micrometer.core.instrument.FunctionCounter.builder("catalog_block_cache_data_lookups", store,
                            BlockCacheCounters::dataMisses)
                    .tag("store", store).tag("result", "miss").description(description).register(registry);
        }
    }

    /**
     * {@code catalog_store_sorted_runs{store=…}}: sorted runs of each view store (all its partitions open here,
     * active and standby), which a point read may look into; and {@code catalog_idle_compactions_total{store=…}}:
     * its partitions compacted to one run once the instance had applied nothing for a while ({@link IdleCompactions}).
     */
    public void bindIdleCompactions(IdleCompactions compactions) {
        for (String store : List.of(StoreNames.PRODUCTS)) {
            Gauge.builder("catalog_store_sorted_runs", compactions, c -> c.sortedRuns(store))
                    .tag("store", store).description("Sorted runs (RocksDB table files of level 0 and non-empty "
                            + "levels below) of a view store's partitions open in this instance").register(registry);
            io.micrometer.core.instrument.FunctionCounter.builder("catalog_idle_compactions", compactions,
                            c -> c.compactions(store))
                    .tag("store", store).description("Partitions of a view store compacted to one sorted run once "
                            + "the instance had applied nothing for --compact-when-idle").register(registry);
        }
    }

    /**
     * {@code catalog_stream_thread_failures_total} and {@code catalog_stream_threads_failing} (1 while threads
     * fail repeatedly, when readiness is 503 too).
     */
    public void bindThreadHealth(io.catalogviews.service.StreamThreadHealth health) {
        io.micrometer.core.instrument.FunctionCounter.builder("catalog_stream_thread_failures", health,
                        io.catalogviews.service.StreamThreadHealth::failures)
                .description("Stream threads that died and were replaced since the start")
                .register(registry);
        Gauge.builder("catalog_stream_threads_failing", health, h -> h.failingRepeatedly() ? 1 : 0)
                .description("1 while stream threads fail repeatedly (readiness then answers 503), else 0")
                .register(registry);
    }

    public EventMetrics events() {
        return events;
    }

    public ApiMetrics api() {
        return api;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Every metric, in the Prometheus text exposition format 0.0.4. */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        for (AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.debug("Closing a metrics binder failed", e);
            }
        }
        registry.close();
    }
}
