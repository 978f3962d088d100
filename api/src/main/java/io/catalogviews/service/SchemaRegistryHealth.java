package io.catalogviews.service;

import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.events.registry.SchemaRegistryClient;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the service says about its schema registry, and how long a stream thread may wait for it (CONTRACT.md
 * section 4, "A third encoding": a registry that cannot be reached is not a bad record; ingestion waits and retries,
 * readiness says why).
 *
 * <p>How a registry outage plays out, and why:
 * <ol>
 *   <li>Only a record whose schema id the decoder has not cached needs the registry (ids are immutable, cached
 *       schemas need none), so an outage changes nothing until a producer starts using a new schema.</li>
 *   <li>Such a record's lookup retries with back-off (100 ms doubling to 1 s) on the stream thread, for up to the
 *       lookup budget ({@link #lookupBudget}: 4 minutes, capped below {@code max.poll.interval.ms}). Meanwhile the
 *       thread's tasks stay open, so every read keeps being answered from their committed state; the consumer's
 *       heartbeat thread keeps the membership; readiness answers 503 with {@link #reason()} and
 *       {@code catalog_schema_registry_waiting} is 1. When the registry answers, the record is decoded and the
 *       thread goes on. If the wait outlasted the exactly-once transaction timeout (10 s, Kafka Streams' default),
 *       the broker has aborted the open transaction: Kafka Streams sees its producer fenced, closes the thread's
 *       tasks and rejoins the group (no thread failure, state kept: the stores are transactional), and the records
 *       since the last commit, this one included, are processed again.</li>
 *   <li>Past the budget, the decoder throws {@link SchemaRegistryUnavailableException}, a {@code KafkaException}:
 *       the processing exception handler fails the thread instead of dead-lettering the record, the service
 *       replaces the thread ({@link #threadReplaced}; not counted as a thread failure), and the new thread reads the
 *       record again and waits again. Waiting longer than {@code max.poll.interval.ms} is not an option: the member
 *       would be dropped from the group with the thread still blocked.</li>
 * </ol>
 * Rejected alternatives: failing the thread at once (a thread replacement and a rebalance for every instance every
 * few seconds, and with the classic protocol the replaced member stays in the group until its session times out,
 * 45 s by default, stalling the rebalance); {@code KafkaStreams#pause()} from a monitor (it also pauses restoration,
 * so after a thread replacement every read of the new thread's partitions answered 503 until the registry came
 * back — seen in SchemaRegistryIT). Thread-safe.
 */
final class SchemaRegistryHealth implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryHealth.class);
    /** Kept below {@code max.poll.interval.ms}, so that a waiting member is never dropped from the group. */
    static final Duration POLL_INTERVAL_MARGIN = Duration.ofSeconds(15);
    static final Duration MIN_BUDGET = Duration.ofSeconds(1);

    private final SchemaRegistryClient registry;
    private final AtomicLong replacements = new AtomicLong();

    private SchemaRegistryHealth(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /** For a service without a schema registry: never waits. */
    static SchemaRegistryHealth none() {
        return new SchemaRegistryHealth(null);
    }

    static SchemaRegistryHealth of(SchemaRegistryClient registry) {
        return new SchemaRegistryHealth(registry);
    }

    /**
     * {@code settings} with the lookup budget capped at the main consumer's {@code max.poll.interval.ms} (Kafka's
     * default 300 000) less {@link #POLL_INTERVAL_MARGIN}.
     */
    static RegistryClientSettings lookupBudget(RegistryClientSettings settings, Properties streamsProperties) {
        String value = streamsProperties.getProperty(StreamsConfig.mainConsumerPrefix(
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG));
        if (value == null) {
            value = streamsProperties.getProperty(StreamsConfig.consumerPrefix(
                    ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG));
        }
        if (value == null) {
            value = streamsProperties.getProperty(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "300000");
        }
        Duration cap = Duration.ofMillis(Long.parseLong(value.trim())).minus(POLL_INTERVAL_MARGIN)
                .minus(settings.requestTimeout());
        if (cap.compareTo(MIN_BUDGET) < 0) {
            cap = MIN_BUDGET;
        }
        return settings.retryBudget().compareTo(cap) <= 0 ? settings : settings.withRetryBudget(cap);
    }

    /** Called from the uncaught-exception handler when the registry made a stream thread fail; it is replaced. */
    void threadReplaced(SchemaRegistryUnavailableException failure) {
        replacements.incrementAndGet();
        LOG.warn("A stream thread waited for the schema registry as long as it may ({}); replacing it, and the new "
                + "thread reads the record again. Nothing is dead-lettered", failure.getMessage());
    }

    /** True while ingestion waits for the registry (a lookup is retrying now). */
    boolean waiting() {
        return reason() != null;
    }

    /** Why ingestion waits for the registry, for readiness; null when it does not. */
    String reason() {
        return registry == null ? null : registry.problem();
    }

    /**
     * {@code catalog_schema_registry_waiting} (1 while ingestion waits for the registry, when readiness is 503 too),
     * {@code catalog_schema_registry_thread_replacements_total}, {@code catalog_schema_registry_lookups_total{result}}
     * and {@code catalog_schema_registry_failed_requests_total}. Nothing without a registry.
     */
    void bindTo(MeterRegistry meters) {
        if (registry == null) {
            return;
        }
        Gauge.builder("catalog_schema_registry_waiting", this, h -> h.waiting() ? 1 : 0)
                .description("1 while ingestion waits for the schema registry (readiness then answers 503), else 0")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_thread_replacements", replacements, AtomicLong::get)
                .description("Stream threads replaced after waiting for the schema registry as long as they may")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_lookups", registry, SchemaRegistryClient::lookupsFound)
                .tag("result", "found").description("Schema lookups the registry answered, by answer")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_lookups", registry, SchemaRegistryClient::lookupsNotFound)
                .tag("result", "not_found").description("Schema lookups the registry answered, by answer")
                .register(meters);
        FunctionCounter.builder("catalog_schema_registry_failed_requests", registry,
                        SchemaRegistryClient::failedAttempts)
                .description("Requests to the schema registry that got no answer (each retry counts)")
                .register(meters);
    }

    /** Ends every wait for the registry at once (the service is closing). */
    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
    }
}
