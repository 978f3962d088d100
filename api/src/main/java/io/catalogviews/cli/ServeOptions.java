package io.catalogviews.cli;

import io.catalogviews.service.ServiceConfig;
import io.catalogviews.topology.TopologySettings;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The options of {@code serve} (and {@code demo}); each also read from {@code CATALOG_VIEWS_<FLAG>}.
 * Defaults are the contract's.
 */
public final class ServeOptions {

    @Option(names = "--bootstrap-servers", defaultValue = "${env:CATALOG_VIEWS_BOOTSTRAP_SERVERS}",
            description = "Kafka bootstrap servers. Absent: start an embedded single-node KRaft broker. "
                    + "Env: CATALOG_VIEWS_BOOTSTRAP_SERVERS.")
    String bootstrapServers;

    @Option(names = "--embedded-kafka-port", defaultValue = "${env:CATALOG_VIEWS_EMBEDDED_KAFKA_PORT:-9092}",
            description = "Port of the embedded broker (0 picks a free port). Default: ${DEFAULT-VALUE}.")
    int embeddedKafkaPort;

    @Option(names = "--http-port", defaultValue = "${env:CATALOG_VIEWS_HTTP_PORT:-8080}",
            description = "HTTP port. Default: ${DEFAULT-VALUE}.")
    int httpPort;

    @Option(names = "--advertised-url", defaultValue = "${env:CATALOG_VIEWS_ADVERTISED_URL}",
            description = "How other instances reach this one, http://host:port. Default: http://<host name>:<http-port>.")
    String advertisedUrl;

    @Option(names = "--state-dir", defaultValue = "${env:CATALOG_VIEWS_STATE_DIR:-./catalog-views-data}",
            description = "This instance's own directory for stores (and embedded broker data). Default: ${DEFAULT-VALUE}.")
    Path stateDir;

    @Option(names = "--partitions", defaultValue = "${env:CATALOG_VIEWS_PARTITIONS:-12}",
            description = "Partitions of the input topic when it is created. Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(names = "--standby-replicas", defaultValue = "${env:CATALOG_VIEWS_STANDBY_REPLICAS:-1}",
            description = "Standby replicas per task. Default: ${DEFAULT-VALUE}.")
    int standbyReplicas;

    @Option(names = "--application-id", defaultValue = "${env:CATALOG_VIEWS_APPLICATION_ID:-catalog-views}",
            description = "Shared by every instance of one deployment. Default: ${DEFAULT-VALUE}.")
    String applicationId;

    @Option(names = "--deleted-retention", defaultValue = "${env:CATALOG_VIEWS_DELETED_RETENTION:-P7D}",
            converter = DurationConverter.class,
            description = "How long deletion markers are kept (ISO-8601 like P7D or PT1H, or 7d, 12h, 30m, 10s). "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration deletedRetention;

    @Option(names = "--input-topic", defaultValue = "${env:CATALOG_VIEWS_INPUT_TOPIC:-catalog.product-events}",
            description = "Product events topic. Default: ${DEFAULT-VALUE}.")
    String inputTopic;

    @Option(names = "--stream-threads", defaultValue = "${env:CATALOG_VIEWS_STREAM_THREADS:-1}",
            description = "Kafka Streams threads. Default: ${DEFAULT-VALUE}.")
    int streamThreads;

    @Option(names = "--rocksdb-memory-mb", defaultValue = "${env:CATALOG_VIEWS_ROCKSDB_MEMORY_MB:-256}",
            description = "Bound on RocksDB block cache and memtables of this instance, in MiB. Default: ${DEFAULT-VALUE}.")
    long rocksDbMemoryMb;

    @Option(names = "--streams-config", description = "Extra Kafka Streams or client property key=value "
            + "(repeatable), applied last.")
    Map<String, String> streamsConfig = new HashMap<>();

    ServiceConfig toConfig() {
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic,
                inputTopic.equals(TopologySettings.DEFAULT_INPUT_TOPIC) ? TopologySettings.DEFAULT_DLQ_TOPIC
                        : inputTopic + ".dlq",
                ServiceConfig.DEFAULT_INPUT_RETENTION, streamThreads, rocksDbMemoryMb * 1024 * 1024, streamsConfig);
    }
}
