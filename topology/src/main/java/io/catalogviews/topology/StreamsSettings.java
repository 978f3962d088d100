package io.catalogviews.topology;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The Kafka Streams configuration of one instance.
 *
 * @param applicationId     shared by all instances of one deployment (group id, changelog prefix)
 * @param bootstrapServers  the Kafka cluster
 * @param self              this instance as the others reach it ({@code application.server})
 * @param stateDir          where RocksDB stores live; one per instance
 * @param standbyReplicas   standby replicas per task
 * @param streamThreads     stream threads (the service's default: two, measured in docs/benchmarks.md, step 7)
 * @param rocksDbMemoryBytes the bound on all RocksDB block cache and memtables of this instance
 * @param overrides         any other Kafka Streams or client property, applied last
 */
public record StreamsSettings(String applicationId, String bootstrapServers, Instance self, Path stateDir,
                              int standbyReplicas, int streamThreads, long rocksDbMemoryBytes,
                              Map<String, String> overrides) {

    /** Changelog records a warm-up replica may still lack when its task moves to it (overridable). */
    public static final long ACCEPTABLE_RECOVERY_LAG = 2_000;
    /** Warm-up replicas moving at once across the deployment (Kafka's default, explicit; overridable). */
    public static final int MAX_WARMUP_REPLICAS = 2;
    /**
     * Segment size of the internal topics this application creates (its changelogs; overridable with
     * {@code topic.segment.bytes}). Kafka compacts only closed segments, so with the broker's usual 1 GB a
     * changelog keeps every version of every row for a long time, and a rebuild replays them all.
     */
    public static final int INTERNAL_TOPIC_SEGMENT_BYTES = 4 * 1024 * 1024;

    public StreamsSettings {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(stateDir, "stateDir");
        overrides = Map.copyOf(overrides);
    }

    /**
     * The producer's {@code max.request.size} as the overrides set it (for the Streams producer, or for every
     * client), or Kafka's default: what a dead letter must fit.
     */
    public int producerMaxRequestSize() {
        String value = overrides.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        if (value == null) {
            value = overrides.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        }
        if (value == null) {
            return TopologySettings.DEFAULT_DEAD_LETTER_MAX_BYTES;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ProducerConfig.MAX_REQUEST_SIZE_CONFIG + " must be a number of bytes, was '"
                    + value + "'", e);
        }
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.hostPort());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().normalize().toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Transactional stores + read-committed queries (KIP-892): a crash does not wipe local state, and a
        // reader never sees a version that the crash then takes back (the contract's committed reads).
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true");
        p.put(StreamsConfig.DEFAULT_INTERACTIVE_QUERY_ISOLATION_LEVEL_CONFIG, "READ_COMMITTED");
        // Pinned: under the "streams" protocol, client-side standby and warm-up settings are ignored.
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(standbyReplicas));
        // Scale-out without a read outage (docs/operations.md, "Adding an instance"): an active task moves to a new
        // instance only once a warm-up replica there is this close to the changelog's end, checked at each probing
        // rebalance; the new owner then restores at most this much (~0.1 s at the measured ~20 000 records/s) while
        // the old copies answer, marked stale. Kafka's default is 10 000; max.warmup.replicas is Kafka's default.
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.toString(ACCEPTABLE_RECOVERY_LAG));
        p.put(StreamsConfig.MAX_WARMUP_REPLICAS_CONFIG, Integer.toString(MAX_WARMUP_REPLICAS));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(streamThreads));
        // 200, not 100: under reads the service is saturated and each commit costs three broker round trips; half
        // as many commits cut freshness p99 ~10x under the bench's read mix (docs/benchmarks.md), at up to 100 ms
        // more per change when idle.
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        // Changelog rows carry product JSON, which LZ4 shrinks several-fold for little CPU:
        // the broker, on the same cores in small deployments, then appends and replicates far fewer bytes per
        // commit. Measured: changes materialized 1.14x, freshness p99 lower (docs/benchmarks.md, "Step 6").
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        // A rebuild replays the changelogs: small segments let the broker's cleaner compact all but the last few MB
        // per partition to one record per row. Measured with 100 000 products and 300 000 changes: rebuild 1.7-2x
        // faster, materialization unchanged (docs/benchmarks.md, "Step 9"). Applies to topics created from now on.
        p.put(StreamsConfig.topicPrefix(TopicConfig.SEGMENT_BYTES_CONFIG), Integer.toString(INTERNAL_TOPIC_SEGMENT_BYTES));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedMemoryRocksDbConfig.class.getName());
        p.put(BoundedMemoryRocksDbConfig.MEMORY_BYTES_CONFIG, Long.toString(rocksDbMemoryBytes));
        // No global tables here; enabling it now only silences the 5.0 deprecation warning.
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.putAll(overrides);
        return p;
    }
}
