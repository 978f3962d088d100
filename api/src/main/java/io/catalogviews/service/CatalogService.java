package io.catalogviews.service;

import io.catalogviews.api.ApiServer;
import io.catalogviews.api.ViewAccess;
import io.catalogviews.api.operations.Operations;
import io.catalogviews.broker.EmbeddedKafkaBroker;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.events.registry.SchemaRegistryClient;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import io.catalogviews.service.config.OperationsConfig;
import io.catalogviews.service.config.SecretsConfig;
import io.catalogviews.service.config.RequestLimits;
import io.catalogviews.service.metrics.ServiceMetrics;
import io.catalogviews.topology.CatalogTopology;
import io.catalogviews.topology.CompositeOutcomeListener;
import io.catalogviews.topology.ErrorHandling;
import io.catalogviews.topology.EventCounters;
import io.catalogviews.topology.StreamsSettings;
import io.catalogviews.topology.TopicSetup;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.listing.internals.PageCache;
import io.catalogviews.views.listing.internals.FacetCache;
import io.catalogviews.views.store.CommitFeed;
import io.catalogviews.views.store.IdleCompactions;
import io.catalogviews.views.store.RowsFirstRebuilds;
import io.catalogviews.views.streams.ActiveStoreHandles;
import io.catalogviews.views.streams.RestoreListeners;
import io.catalogviews.views.streams.RestoreProgress;
import io.catalogviews.views.streams.StreamsClusterView;
import io.catalogviews.views.streams.StreamsKeyOwners;
import io.catalogviews.views.streams.StreamsListingQueries;
import io.catalogviews.views.streams.StreamsProductQueries;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.routing.PeerHeaders;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One running instance: (optionally) the embedded broker, the topics, the Kafka Streams application and the
 * HTTP API, started in that order and stopped in the reverse one. A clean stop turns readiness off, leaves
 * the consumer group (so partitions move at once), keeps HTTP up while they move, then stops.
 */
public final class CatalogService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CatalogService.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final ServiceConfig config;
    private final StateDirLock lock;
    private final EmbeddedKafkaBroker broker;
    private final String bootstrapServers;
    private final Instance self;
    private final int partitions;
    private final EventCounters counters;
    private final KafkaStreams streams;
    private final ApiServer api;
    private final AtomicBoolean restored;
    private final AtomicBoolean closing;
    private final ServiceMetrics metrics;
    private final StreamThreadHealth threadHealth;
    private final SchemaRegistryHealth registryHealth;
    private final IdleCompactions compactions;

    private CatalogService(ServiceConfig config, StateDirLock lock, EmbeddedKafkaBroker broker,
                           String bootstrapServers, Instance self, int partitions, EventCounters counters,
                           KafkaStreams streams, ApiServer api, AtomicBoolean restored,
                           AtomicBoolean closing, ServiceMetrics metrics, StreamThreadHealth threadHealth,
                           SchemaRegistryHealth registryHealth, IdleCompactions compactions) {
        this.config = config;
        this.lock = lock;
        this.broker = broker;
        this.bootstrapServers = bootstrapServers;
        this.self = self;
        this.partitions = partitions;
        this.counters = counters;
        this.streams = streams;
        this.api = api;
        this.restored = restored;
        this.closing = closing;
        this.metrics = metrics;
        this.threadHealth = threadHealth;
        this.registryHealth = registryHealth;
        this.compactions = compactions;
    }

    public static CatalogService start(ServiceConfig config) {
        return start(config, OperationsConfig.defaults());
    }

    /**
     * @param operations Kafka client properties for every client, admin token, request log
     * @throws IllegalArgumentException naming the option when the configuration is invalid
     */
    public static CatalogService start(ServiceConfig config, OperationsConfig operations) {
        return start(config, operations, RequestLimits.defaults());
    }

    /**
     * @param operations Kafka client properties for every client, admin token, request log
     * @param limits     scan budget, caps on waits, forwards and connections, idle timeout
     * @throws IllegalArgumentException naming the option when the configuration is invalid
     */
    public static CatalogService start(ServiceConfig config, OperationsConfig operations, RequestLimits limits) {
        operations.requireUsableWith(config.bootstrapServers());
        StateDirLock lock = StateDirLock.acquire(config.stateDir());
        EmbeddedKafkaBroker broker = null;
        ServiceMetrics metrics = null;
        try {
            String bootstrap = config.bootstrapServers();
            if (bootstrap == null || bootstrap.isBlank()) {
                broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(config.stateDir().resolve("kafka"))
                        .withPort(config.embeddedKafkaPort()));
                bootstrap = broker.bootstrapServers();
                LOG.info("Embedded Kafka broker listening on {} (started in {} ms); publish events to topic {}",
                        bootstrap, broker.startupTime().toMillis(), config.inputTopic());
            }
            int httpPort = config.httpPort() == 0 ? freePort() : config.httpPort();
            Instance self = advertised(config.advertisedUrl(), httpPort);
            int partitions;
            try (Admin admin = Admin.create(operations.kafkaClient().forAdmin(bootstrap))) {
                partitions = TopicSetup.ensureTopics(admin, config.inputTopic(), config.deadLetterTopic(),
                        config.partitions(), config.inputRetention());
            }
            EventCounters counters = new EventCounters();
            metrics = ServiceMetrics.create();
            TopologySettings topology = new TopologySettings(config.inputTopic(), config.deadLetterTopic(), partitions,
                    config.deletedRetention(), Duration.ofMinutes(1), CompositeOutcomeListener.of(counters,
                    metrics.events()));
            StreamsSettings streamsSettings = new StreamsSettings(config.applicationId(), bootstrap, self,
                    config.stateDir().resolve("streams"), config.standbyReplicas(), config.streamThreads(),
                    config.rocksDbMemoryBytes(), operations.kafkaClient().forStreams(config.streamsOverrides()));
            topology = topology.withDeadLetterMaxBytes(streamsSettings.producerMaxRequestSize());
            java.util.Properties streamsProperties = streamsSettings.toProperties();
            SchemaRegistryClient registry = config.schemaRegistry() == null ? null : SchemaRegistryClient.create(
                    SchemaRegistryHealth.lookupBudget(config.schemaRegistry(), streamsProperties));
            if (registry != null) {
                // One codec for every task: its cache of schema ids is shared by all stream threads.
                topology = topology.withDecoder(ProductEventCodec.withSchemaRegistry(registry));
                LOG.info("Confluent-framed values are decoded with schemas from {}", registry);
            }
            streamsProperties.putAll(ErrorHandling.properties(topology));
            CommitFeed commits = new CommitFeed();
            streamsProperties.put(CommitFeed.CONFIG, commits); // the view stores report their commits here
            RowsFirstRebuilds rebuilds = new RowsFirstRebuilds();
            streamsProperties.put(RowsFirstRebuilds.CONFIG, rebuilds); // stores restoring into an empty state
            IdleCompactions compactions = IdleCompactions.start(IdleCompactions.idleAfter(streamsProperties),
                    IdleCompactions.warmAfterCompaction(streamsProperties));
            streamsProperties.put(IdleCompactions.CONFIG, compactions); // the view stores' partitions register here
            metrics.bindIdleCompactions(compactions);
            KafkaStreams streams = new KafkaStreams(CatalogTopology.build(topology), streamsProperties);
            metrics.bindKafkaStreams(streams, ServiceMetrics.STREAMS_REFRESH);
            RestoreProgress restores = new RestoreProgress();
            streams.setGlobalStateRestoreListener(RestoreListeners.of(rebuilds, restores));
            metrics.bindRestoreProgress(restores);
            AtomicBoolean restored = new AtomicBoolean();
            AtomicBoolean closing = new AtomicBoolean();
            ActiveStoreHandles handles = new ActiveStoreHandles(streams);
            commits.onClosing(handles::invalidate); // before a store's RocksDB instance closes
            streams.setStateListener((newState, oldState) -> {
                handles.invalidate(); // tasks move, close or become standbys only across state changes
                LOG.info("Kafka Streams state {} -> {}", oldState, newState);
                if (newState == KafkaStreams.State.RUNNING) {
                    restored.set(true);
                }
            });
            StreamThreadHealth threadHealth = new StreamThreadHealth();
            metrics.bindThreadHealth(threadHealth);
            SchemaRegistryHealth registryHealth = registry == null ? SchemaRegistryHealth.none()
                    : SchemaRegistryHealth.of(registry);
            registryHealth.bindTo(metrics.registry());
            streams.setUncaughtExceptionHandler(e -> {
                SchemaRegistryUnavailableException outage = SchemaRegistryUnavailableException.in(e);
                if (outage != null) {
                    // Not a defect, so not counted as a thread failure: the thread waited for the registry as long
                    // as it may; the one that replaces it reads the record again (SchemaRegistryHealth).
                    registryHealth.threadReplaced(outage);
                    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
                }
                threadHealth.failed(e);
                LOG.error("Stream thread failed ({} failures so far); replacing it", threadHealth.failures(), e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            ApiServer api;
            try {
                FacetCache facetCache = FacetCache.listeningTo(commits.categories(), partitions);
                metrics.bindFacetCache(facetCache);
                metrics.bindBlockCacheCounters();
                PageCache pageCache = PageCache.ofCatalogPages(commits.catalogPages(), partitions);
                PageCache categoryPageCache = PageCache.ofCategoryPages(commits.categoryPages(), partitions);
                metrics.bindPageCache(pageCache, "catalog");
                metrics.bindPageCache(categoryPageCache, "category");
                ViewAccess views = new ViewAccess(
                        new StreamsKeyOwners(streams, self, partitions, config.inputTopic()),
                        new StreamsProductQueries(streams, partitions, handles),
                        new StreamsListingQueries(streams, partitions, limits.scanBudget(), facetCache,
                                pageCache, categoryPageCache, handles),
                        new StreamsClusterView(streams, self, config.inputTopic()), commits);
                SecretsConfig secrets = operations.secrets();
                if (secrets.clusterSecretDerived()) {
                    LOG.warn("No --cluster-secret (CATALOG_VIEWS_CLUSTER_SECRET) is set: the secret that signs "
                            + "requests between instances{} is derived from the application id, so anyone who knows "
                            + "it can sign internal headers. Give every instance the same --cluster-secret.",
                            secrets.cursorSecret() == null ? " and listing cursors" : "");
                }
                api = ApiServer.start(limits.apiSettings(httpPort), views,
                        new CursorCodec(secrets.effectiveCursorSecret(config.applicationId()),
                                secrets.effectivePreviousCursorSecret()),
                        new PeerHeaders(secrets.effectiveClusterSecret(config.applicationId()),
                                secrets.previousClusterSecret()),
                        new ReadinessHolder(streams, restored, closing, threadHealth, registryHealth),
                        new Operations(metrics.api(),
                                metrics::scrape, operations.adminToken(), operations.requestLog()));
            } catch (RuntimeException e) {
                registryHealth.close();
                streams.close(CLOSE_TIMEOUT);
                compactions.close();
                throw new IllegalStateException("cannot serve HTTP on port " + httpPort + ": " + e.getMessage(), e);
            }
            CatalogService service = new CatalogService(config, lock, broker, bootstrap, self, partitions, counters,
                    streams, api, restored, closing, metrics, threadHealth, registryHealth, compactions);
            streams.start();
            LOG.info("catalog-views instance {} started: HTTP port {}, application id {}, {} partitions",
                    self, api.port(), config.applicationId(), partitions);
            return service;
        } catch (RuntimeException e) {
            if (metrics != null) {
                metrics.close();
            }
            if (broker != null) {
                broker.close();
            }
            lock.close();
            throw e;
        }
    }

    /**
     * Readiness: restored once (RUNNING seen), not failed or closing, stream threads not failing repeatedly, and
     * ingestion not waiting for the schema registry; rebalancing stays ready.
     */
    private record ReadinessHolder(KafkaStreams streams, AtomicBoolean restored, AtomicBoolean closing,
                                   StreamThreadHealth threads, SchemaRegistryHealth registry)
            implements io.catalogviews.api.health.Readiness {
        @Override
        public boolean isReady() {
            KafkaStreams.State state = streams.state();
            return !closing.get() && restored.get()
                    && (state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING)
                    && !threads.failingRepeatedly() && !registry.waiting();
        }

        @Override
        public String notReadyReason() {
            String threadProblem = threads.problem();
            String registryProblem = registry.reason();
            if (threadProblem != null && registryProblem != null) {
                return threadProblem + "; " + registryProblem;
            }
            return threadProblem != null ? threadProblem : registryProblem;
        }
    }

    public boolean isReady() {
        return new ReadinessHolder(streams, restored, closing, threadHealth, registryHealth).isReady();
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Instance self() {
        return self;
    }

    public int httpPort() {
        return api.port();
    }

    public int partitions() {
        return partitions;
    }

    public EventCounters counters() {
        return counters;
    }

    public ServiceConfig config() {
        return config;
    }

    /** The HTTP routes the API registered, as {@code "GET /v1/products/{id}"}. */
    public List<String> httpRoutes() {
        return api.routes();
    }

    public KafkaStreams.State streamsState() {
        return streams.state();
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        LOG.info("Stopping catalog-views instance {}: leaving the group, then stopping HTTP", self);
        registryHealth.close();
        compactions.close(); // no new compaction; a running one is canceled by its store's close below
        try {
            streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        } catch (RuntimeException e) {
            LOG.warn("Kafka Streams did not close cleanly", e);
        }
        api.close();
        metrics.close();
        if (broker != null) {
            broker.close();
        }
        lock.close();
        LOG.info("catalog-views instance {} stopped", self);
    }

    static Instance advertised(String advertisedUrl, int httpPort) {
        if (advertisedUrl == null || advertisedUrl.isBlank()) {
            return new Instance(hostName(), httpPort);
        }
        URI uri;
        try {
            uri = URI.create(advertisedUrl.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--advertised-url is not a URL: '" + advertisedUrl + "'", e);
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("--advertised-url must look like http://host:port, was '"
                    + advertisedUrl + "'");
        }
        return new Instance(uri.getHost(), uri.getPort() == -1 ? 80 : uri.getPort());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("cannot find a free HTTP port", e);
        }
    }
}
