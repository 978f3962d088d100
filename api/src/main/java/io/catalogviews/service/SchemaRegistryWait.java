package io.catalogviews.service;

import io.catalogviews.events.registry.SchemaRegistryClient;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps ingestion waiting, without dead letters, while the schema registry gives no answer (CONTRACT.md section 4,
 * "A third encoding").
 *
 * <p>How a registry outage plays out, and why:
 * <ol>
 *   <li>A record carries a schema id the decoder has not cached. Its lookup retries with back-off for a few seconds
 *       on the stream thread ({@code lookup.retry.budget.ms}, default 5 s): a registry restart or a network blip
 *       passes without anything else happening. The budget stays well under the exactly-once transaction timeout
 *       (10 s) and {@code max.poll.interval.ms}, which a longer block would exceed (the transaction would be aborted
 *       and the thread fenced, or the member dropped from the group).</li>
 *   <li>The budget spent, the decoder throws {@link SchemaRegistryUnavailableException}, a {@code KafkaException}:
 *       the processing exception handler fails the thread instead of dead-lettering the record, the transaction is
 *       aborted, and the thread that replaces it reads the record again from the last committed offset.</li>
 *   <li>Before that thread is replaced, the uncaught-exception handler calls {@link #outage}: this pauses the
 *       whole Kafka Streams client ({@link KafkaStreams#pause()}; the group stays stable, the stores keep answering
 *       reads) and probes the registry with back-off (0.5 s doubling to 10 s). Without the pause, the new thread
 *       would fail the same way every few seconds, each time a rebalance for every instance.</li>
 *   <li>When the registry answers again (a schema or "not found" both count), ingestion resumes and the record is
 *       decoded. Readiness answers 503 with {@link #reason()} while ingestion waits, and
 *       {@code catalog_schema_registry_waiting} is 1.</li>
 * </ol>
 * A registry outage costs nothing while every id on the topic is cached: ids are immutable, so cached schemas need no
 * registry. Thread-safe.
 */
final class SchemaRegistryWait implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryWait.class);
    static final Duration FIRST_PROBE = Duration.ofMillis(500);
    static final Duration MAX_PROBE = Duration.ofSeconds(10);

    private final KafkaStreams streams;
    private final SchemaRegistryClient registry;
    private final ScheduledExecutorService prober;
    private boolean paused;
    private boolean closed;
    private Instant pausedSince;
    private String lastFailure;
    private long pauses;

    private SchemaRegistryWait(KafkaStreams streams, SchemaRegistryClient registry) {
        this.streams = streams;
        this.registry = registry;
        this.prober = registry == null ? null : Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "schema-registry-probe");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** For a service without a schema registry: never waits. */
    static SchemaRegistryWait none() {
        return new SchemaRegistryWait(null, null);
    }

    static SchemaRegistryWait of(KafkaStreams streams, SchemaRegistryClient registry) {
        return new SchemaRegistryWait(streams, registry);
    }

    /**
     * Called from the uncaught-exception handler, on the stream thread that the registry outage made fail and before
     * it is replaced: pauses ingestion (once) and starts probing.
     */
    synchronized void outage(SchemaRegistryUnavailableException failure) {
        lastFailure = failure.getMessage();
        if (paused || closed || registry == null) {
            return;
        }
        paused = true;
        pausedSince = Instant.now();
        pauses++;
        streams.pause();
        LOG.warn("Ingestion paused: {}. Probing the registry until it answers; nothing is dead-lettered meanwhile",
                failure.getMessage());
        schedule(failure.schemaId(), FIRST_PROBE);
    }

    /** True while ingestion waits for the registry (paused, or a lookup retrying now). */
    boolean waiting() {
        return reason() != null;
    }

    /** Why ingestion waits for the registry, for readiness; null when it does not. */
    synchronized String reason() {
        if (registry == null) {
            return null;
        }
        if (paused) {
            String problem = registry.problem();
            return "ingestion is paused since " + pausedSince + " because the schema registry gives no answer: "
                    + (problem != null ? problem : lastFailure) + "; it resumes once the registry answers";
        }
        return registry.problem();
    }

    /** How many times ingestion was paused for the registry since the start. */
    synchronized long pauses() {
        return pauses;
    }

    /**
     * {@code catalog_schema_registry_waiting} (1 while ingestion waits for the registry, when readiness is 503 too),
     * {@code catalog_schema_registry_pauses_total}, {@code catalog_schema_registry_lookups_total{result}} and
     * {@code catalog_schema_registry_failed_requests_total}. Nothing without a registry.
     */
    void bindTo(MeterRegistry meters) {
        if (registry == null) {
            return;
        }
        Gauge.builder("catalog_schema_registry_waiting", this, w -> w.waiting() ? 1 : 0)
                .description("1 while ingestion waits for the schema registry (readiness then answers 503), else 0")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_pauses", this, SchemaRegistryWait::pauses)
                .description("Times ingestion was paused because the schema registry gave no answer")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_lookups", registry, SchemaRegistryClient::lookupsFound)
                .tag("result", "found").description("Schema id lookups the registry answered, by answer")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_lookups", registry, SchemaRegistryClient::lookupsNotFound)
                .tag("result", "not_found").description("Schema id lookups the registry answered, by answer")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_failed_requests", registry,
                        SchemaRegistryClient::failedAttempts)
                .description("Requests to the schema registry that got no answer (each retry counts)")
                .register(meters);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (prober != null) {
            prober.shutdownNow();
        }
    }

    private void schedule(int schemaId, Duration delay) {
        prober.schedule(() -> probe(schemaId, delay), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void probe(int schemaId, Duration delay) {
        try {
            registry.probe(schemaId);
            resume();
        } catch (SchemaRegistryUnavailableException e) {
            synchronized (this) {
                lastFailure = e.getMessage();
                if (!closed) {
                    Duration next = delay.multipliedBy(2).compareTo(MAX_PROBE) > 0 ? MAX_PROBE : delay.multipliedBy(2);
                    LOG.debug("Schema registry still gives no answer ({}); probing again in {} ms", e.reason(),
                            next.toMillis());
                    schedule(schemaId, next);
                }
            }
        } catch (RuntimeException e) {
            // A defect in probing must not leave ingestion paused for good.
            LOG.error("Probing the schema registry failed unexpectedly; resuming ingestion", e);
            resume();
        }
    }

    private synchronized void resume() {
        if (closed || !paused) {
            return;
        }
        paused = false;
        streams.resume();
        LOG.info("Schema registry {} answers again; ingestion resumed after {} ms", registry.url(),
                Duration.between(pausedSince, Instant.now()).toMillis());
    }
}
