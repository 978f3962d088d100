package io.catalogviews.cli;

import io.catalogviews.api.security.AdminToken;
import io.catalogviews.cli.registry.SchemaRegistryOptions;
import io.catalogviews.service.ServiceConfig;
import io.catalogviews.service.config.ConfigFile;
import io.catalogviews.service.config.KafkaClientConfig;
import io.catalogviews.service.config.OperationsConfig;
import io.catalogviews.service.config.OptionChecks;
import io.catalogviews.service.config.SecretsConfig;
import io.catalogviews.service.config.RequestLimits;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.store.IdleCompactions;
import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code serve} (and {@code demo}); each also read from {@code CATALOG_VIEWS_<FLAG>}.
 * Defaults are the contract's.
 */
public final class ServeOptions {

    @Option(names = "--bootstrap-servers", defaultValue = "${env:CATALOG_VIEWS_BOOTSTRAP_SERVERS}",
            description = "Kafka bootstrap servers. Absent: start an embedded single-node KRaft broker. "
                    + "Env: CATALOG_VIEWS_BOOTSTRAP_SERVERS. Default: none (embedded broker).")
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

    @Option(names = "--stream-threads",
            defaultValue = "${env:CATALOG_VIEWS_STREAM_THREADS:-" + ServiceConfig.DEFAULT_STREAM_THREADS + "}",
            description = "Kafka Streams threads. Default: ${DEFAULT-VALUE}.")
    int streamThreads;

    @Option(names = "--rocksdb-memory-mb", defaultValue = "${env:CATALOG_VIEWS_ROCKSDB_MEMORY_MB:-256}",
            description = "Bound on RocksDB block cache and memtables of this instance, in MiB. Default: ${DEFAULT-VALUE}.")
    long rocksDbMemoryMb;

    @Option(names = "--product-view-cache-share",
            defaultValue = "${env:CATALOG_VIEWS_PRODUCT_VIEW_CACHE_SHARE:-"
                    + BoundedMemoryRocksDbConfig.DEFAULT_PRODUCT_VIEW_CACHE_SHARE + "}",
            converter = CacheShareConverter.class,
            description = "Share of --rocksdb-memory-mb that is the product view's own caches (a row cache for "
                    + "point reads and a block cache), so that reads of other stores and scans of the category "
                    + "scopes never evict products; 0 shares one block cache among all stores and keeps no row "
                    + "cache. Default: ${DEFAULT-VALUE}.")
    double productViewCacheShare;

    @Option(names = "--compact-when-idle", defaultValue = "${env:CATALOG_VIEWS_COMPACT_WHEN_IDLE:-10s}",
            converter = DurationConverter.OrZero.class,
            description = "Once no view store partition of this instance has been written for this long, each one "
                    + "written before is compacted to one sorted run when its newer runs hold a tenth of its largest "
                    + "(faster point reads after a load or a re-price); 0 never compacts. Default: ${DEFAULT-VALUE}.")
    Duration compactWhenIdle;

    @Option(names = "--scan-budget", defaultValue = "10000",
            description = "Index entries one listing scan may examine: a category page, each product partition of a "
                    + "whole-catalog page, the facets of a partition. A page that runs out answers what it found and "
                    + "a cursor that resumes the scan; facets answer 422 query_too_broad. Default: ${DEFAULT-VALUE}.")
    long scanBudget;

    @Option(names = "--max-waiters", defaultValue = "10000",
            description = "Concurrent minVersion waits; beyond, 503 with Retry-After. Default: ${DEFAULT-VALUE}.")
    int maxWaiters;

    @Option(names = "--max-in-flight-forwards", defaultValue = "512",
            description = "Calls to other instances in flight at once (forwards, scatter-gather parts, standby "
                    + "reads); beyond, reads that need one get 503 with Retry-After. Default: ${DEFAULT-VALUE}.")
    int maxInFlightForwards;

    @Option(names = "--http-max-connections", defaultValue = "1000",
            description = "HTTP connections open at once (more wait to be accepted); Jetty gets this many threads "
                    + "plus 48, so clients that do not read their answers cannot hold every thread. "
                    + "Default: ${DEFAULT-VALUE}.")
    int httpMaxConnections;

    @Option(names = "--http-idle-timeout", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long an HTTP connection may make no progress (a client that neither sends nor reads) "
                    + "before it is closed. Default: ${DEFAULT-VALUE}.")
    Duration httpIdleTimeout;

    @Option(names = "--http-direct-answers", arity = "0..1", fallbackValue = "true", paramLabel = "<true|false>",
            defaultValue = "true",
            description = "Answer plain reads directly on Jetty, ahead of the routes: a category's pages and facets "
                    + "kept in memory on the selector thread (no dispatch to a pool thread), a product by id on a pool "
                    + "thread without the servlet layer; the same answers. Off while --request-log is on. "
                    + "Default: ${DEFAULT-VALUE}.")
    boolean httpDirectAnswers;

    @Option(names = "--streams-config", description = "Extra Kafka Streams or client property key=value "
            + "(repeatable), applied last. Default: none.")
    Map<String, String> streamsConfig = new HashMap<>();

    /** Help footer of the commands that use these options. */
    static final String FOOTER = "%nEvery option can also be set by environment variable CATALOG_VIEWS_<OPTION> "
            + "(upper case, dashes as underscores, e.g. CATALOG_VIEWS_HTTP_PORT=8081; not --streams-config) or as "
            + "<option>=<value> in the --config file (http-port=8081; streams-config.<property>=<value>). "
            + "Precedence: flag > environment > config file > default.";

    @Option(names = "--config", paramLabel = "<file>",
            description = "Properties file of options: keys are option names without dashes (http-port=8081, "
                    + "streams-config.<property>=<value>); flags and environment variables win over it. "
                    + "Env: CATALOG_VIEWS_CONFIG. Default: none.")
    Path config;

    @Option(names = "--kafka-config", paramLabel = "<file>",
            description = "Kafka client properties file (security.protocol, sasl.*, ssl.*, ...) given to every Kafka "
                    + "client of the service: Kafka Streams, the Admin client that creates topics and the demo "
                    + "producer. Needs --bootstrap-servers. Default: none.")
    Path kafkaConfig;

    @Option(names = "--admin-token", paramLabel = "<token>",
            description = "Bearer token required on /metrics and /v1/cluster (at least 16 characters). Prefer "
                    + "CATALOG_VIEWS_ADMIN_TOKEN or the config file to the flag, which other users can see. "
                    + "Default: none (open).")
    String adminToken;

    @Option(names = "--request-log", arity = "0..1", fallbackValue = "true", paramLabel = "<true|false>",
            defaultValue = "false",
            description = "Log one line per HTTP request (logger io.catalogviews.requests). Default: ${DEFAULT-VALUE}.")
    boolean requestLog;

    @Option(names = SecretsConfig.CLUSTER_SECRET, paramLabel = "<secret>",
            description = "Secret shared by every instance of the deployment (at least 16 characters): signs the "
                    + "headers that instances send each other (forwarded reads, deadlines, standby reads), which are "
                    + "ignored on requests it did not sign, and, unless --cursor-secret is set, listing cursors. "
                    + "Prefer CATALOG_VIEWS_CLUSTER_SECRET or the config file to the flag. "
                    + "Default: derived from --application-id (anyone who knows it can sign; a warning is logged).")
    String clusterSecret;

    @Option(names = SecretsConfig.PREVIOUS_CLUSTER_SECRET, paramLabel = "<secret>",
            description = "The cluster secret being replaced: still accepted while the instances move to the new "
                    + "one (one rotation). Default: none.")
    String previousClusterSecret;

    @Option(names = SecretsConfig.CURSOR_SECRET, paramLabel = "<secret>",
            description = "Secret that authenticates listing cursors (at least 16 characters). "
                    + "Default: the cluster secret.")
    String cursorSecret;

    @Option(names = SecretsConfig.PREVIOUS_CURSOR_SECRET, paramLabel = "<secret>",
            description = "The cursor secret being replaced: cursors made with it stay valid (one rotation). "
                    + "Default: the previous cluster secret when --cursor-secret is not set, else none.")
    String previousCursorSecret;

    @Mixin
    SchemaRegistryOptions schemaRegistry = new SchemaRegistryOptions();

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /**
     * Kafka client properties, admin token, request log and secrets; fails naming the option when one is invalid.
     */
    OperationsConfig toOperations() {
        return new OperationsConfig(KafkaClientConfig.load(kafkaConfig), AdminToken.of(adminToken), requestLog,
                SecretsConfig.of(clusterSecret, previousClusterSecret, cursorSecret, previousCursorSecret));
    }

    /** The config file's {@code streams-config.*} entries under the flags' ones; checks the file's keys. */
    private Map<String, String> streamsConfigWithFile() {
        ConfigFile file = ConfigFile.load(config);
        List<String> keys = new ArrayList<>();
        List<String> mapPrefixes = new ArrayList<>();
        for (OptionSpec option : spec == null ? List.<OptionSpec>of() : spec.options()) {
            String key = LayeredDefaults.key(option);
            if (option.typeInfo().isMap()) {
                mapPrefixes.add(key + ".");
            } else if (!option.usageHelp() && !option.versionHelp() && !key.equals("config")) {
                keys.add(key);
            }
        }
        file.requireKnown(keys, mapPrefixes);
        Map<String, String> merged = new LinkedHashMap<>();
        if (compactWhenIdle != null) {
            // Under the Streams properties, where the view stores' partitions find it; an explicit one wins.
            merged.put(IdleCompactions.IDLE_AFTER_MS_CONFIG, Long.toString(compactWhenIdle.toMillis()));
        }
        // Read where the RocksDB stores are configured; an explicit Streams property wins here too.
        merged.put(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, Double.toString(productViewCacheShare));
        merged.putAll(file.withPrefix("streams-config."));
        merged.putAll(streamsConfig);
        return merged;
    }

    /** Scan budget, caps on waits, forwards and connections, idle timeout; fails naming the option when invalid. */
    RequestLimits toLimits() {
        return new RequestLimits(scanBudget, maxWaiters, maxInFlightForwards, httpMaxConnections, httpIdleTimeout,
                httpDirectAnswers);
    }

    private void checkValues() {
        OptionChecks.bootstrapServers("--bootstrap-servers", bootstrapServers);
        OptionChecks.kafkaName("--application-id", applicationId);
        OptionChecks.kafkaName("--input-topic", inputTopic);
        OptionChecks.inRange("--stream-threads", streamThreads, 1, 64);
        OptionChecks.inRange("--rocksdb-memory-mb", rocksDbMemoryMb, 16, 1024L * 1024);
    }

    ServiceConfig toConfig() {
        checkValues();
        Map<String, String> streamsConfigFromAllSources = streamsConfigWithFile();
        return new ServiceConfig(bootstrapServers, embeddedKafkaPort, httpPort, advertisedUrl, stateDir, partitions,
                standbyReplicas, applicationId, deletedRetention, inputTopic,
                inputTopic.equals(TopologySettings.DEFAULT_INPUT_TOPIC) ? TopologySettings.DEFAULT_DLQ_TOPIC
                        : inputTopic + ".dlq",
                ServiceConfig.DEFAULT_INPUT_RETENTION, streamThreads, rocksDbMemoryMb * 1024 * 1024,
                streamsConfigFromAllSources, schemaRegistry.toSettings());
    }
}
