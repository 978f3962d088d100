package io.catalogviews.service;

import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.topology.TopologySettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one instance of the service is started with. Defaults are the contract's (CONTRACT.md §3);
 * the CLI documents each option and reads it from flags and {@code CATALOG_VIEWS_*} environment variables.
 *
 * @param bootstrapServers   Kafka to use; null starts an embedded single-node KRaft broker
 * @param embeddedKafkaPort  port of the embedded broker (0 picks a free one)
 * @param httpPort           HTTP port (0 picks a free one)
 * @param advertisedUrl      how other instances reach this one; null: {@code http://<host name>:<http-port>}
 * @param stateDir           this instance's own directory (RocksDB stores, embedded broker data)
 * @param partitions         partition count of the input topic when this instance creates it
 * @param standbyReplicas    standby replicas per task
 * @param applicationId      shared by every instance of one deployment
 * @param deletedRetention   how long deletion markers are kept
 * @param inputTopic         product events topic
 * @param deadLetterTopic    dead-letter topic
 * @param inputRetention     retention of the topics this instance creates
 * @param streamThreads      Kafka Streams threads
 * @param rocksDbMemoryBytes bound on RocksDB block cache and memtables of this instance
 * @param streamsOverrides   extra Kafka Streams/client properties, applied last (tests shorten timeouts here)
 * @param schemaRegistry     the schema registry whose ids Confluent-framed values carry; null refuses that framing
 */
public record ServiceConfig(String bootstrapServers, int embeddedKafkaPort, int httpPort, String advertisedUrl,
                            Path stateDir, int partitions, int standbyReplicas, String applicationId,
                            Duration deletedRetention, String inputTopic, String deadLetterTopic,
                            Duration inputRetention, int streamThreads, long rocksDbMemoryBytes,
                            Map<String, String> streamsOverrides, RegistryClientSettings schemaRegistry) {

    public static final int DEFAULT_EMBEDDED_KAFKA_PORT = 9092;
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final String DEFAULT_STATE_DIR = "./catalog-views-data";
    public static final int DEFAULT_PARTITIONS = 12;
    /**
     * Two, measured on 2 cores with the broker and a load client beside the service: with the read mix running,
     * one thread applying records while the other waits for the broker's commit round trips halved the product
     * view's freshness p50 in every one of five runs; materialization unchanged (docs/benchmarks.md, step 7).
     */
    public static final int DEFAULT_STREAM_THREADS = 2;
    public static final int DEFAULT_STANDBY_REPLICAS = 1;
    public static final String DEFAULT_APPLICATION_ID = "catalog-views";
    public static final Duration DEFAULT_INPUT_RETENTION = Duration.ofDays(7);

    public ServiceConfig {
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(applicationId, "applicationId");
        if (partitions < 1) {
            throw new IllegalArgumentException("--partitions must be >= 1, was " + partitions);
        }
        if (standbyReplicas < 0) {
            throw new IllegalArgumentException("--standby-replicas must be >= 0, was " + standbyReplicas);
        }
        if (httpPort < 0 || httpPort > 65535) {
            throw new IllegalArgumentException("--http-port must be in 0..65535, was " + httpPort);
        }
        if (embeddedKafkaPort < 0 || embeddedKafkaPort > 65535) {
            throw new IllegalArgumentException("--embedded-kafka-port must be in 0..65535, was " + embeddedKafkaPort);
        }
        streamsOverrides = Map.copyOf(streamsOverrides);
    }

    /** Without a schema registry. */
    public ServiceConfig(String bootstrapServers, int embeddedKafkaPort, int httpPort, String advertisedUrl,
                         Path stateDir, int partitions, int standbyReplicas, String applicationId,
                         Duration deletedRetention, String inputTopic, String deadLetterTopic,
                         Duration inputRetention, int streamThreads, long rocksDbMemoryBytes,
                         Map<String, String> streamsOverrides) {
        this(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions, standbyReplicas,
                applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention, streamThreads,
                rocksDbMemoryBytes, streamsOverrides, null);
    }

    /** The contract's defaults, for the given state directory. */
    public static ServiceConfig defaults(Path stateDir) {
        return new ServiceConfig(null, DEFAULT_EMBEDDED_KAFKA_PORT, DEFAULT_HTTP_PORT, null, stateDir,
                DEFAULT_PARTITIONS, DEFAULT_STANDBY_REPLICAS, DEFAULT_APPLICATION_ID,
                TopologySettings.DEFAULT_DELETED_RETENTION, TopologySettings.DEFAULT_INPUT_TOPIC,
                TopologySettings.DEFAULT_DLQ_TOPIC, DEFAULT_INPUT_RETENTION, DEFAULT_STREAM_THREADS, 256L * 1024 * 1024,
                Map.of());
    }

    public ServiceConfig withBootstrapServers(String servers) {
        return new ServiceConfig(servers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, streamsOverrides, schemaRegistry);
    }

    public ServiceConfig withHttp(int port, String advertised) {
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, port, advertised, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, streamsOverrides, schemaRegistry);
    }

    public ServiceConfig withEmbeddedKafkaPort(int port) {
        return new ServiceConfig(bootstrapServers, port, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, streamsOverrides, schemaRegistry);
    }

    public ServiceConfig withTopology(String appId, int partitionCount, int standbys, Duration retention) {
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir,
                partitionCount, standbys, appId, retention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, streamsOverrides, schemaRegistry);
    }

    public ServiceConfig withStreamsOverrides(Map<String, String> overrides) {
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, overrides, schemaRegistry);
    }

    public ServiceConfig withSchemaRegistry(RegistryClientSettings registry) {
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic, deadLetterTopic, inputRetention,
                streamThreads, rocksDbMemoryBytes, streamsOverrides, registry);
    }
}
