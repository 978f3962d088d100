package io.catalogviews.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import kafka.server.KafkaConfig;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in KRaft mode (one process acting as broker and controller), running
 * inside this JVM from the regular Kafka jars.
 *
 * <p>Storage lives under {@link Config#dataDir()}; it is formatted (with a new cluster id) only when it
 * holds no {@code meta.properties} yet, so starting again on the same directory keeps the cluster id,
 * the topics and their records. The quorum is a static one-voter set
 * ({@code controller.quorum.voters=1@localhost:<controllerPort>}), which also lets the controller port
 * change between runs.
 *
 * <p>After an unclean stop (kill -9, crash) the start waits, controller first, until the old incarnation of
 * the broker is fenced ({@code broker.session.timeout.ms}, 6 s) before the broker starts, so that transactions
 * committed just before the stop get their commit markers (see {@link StagedKafkaServer}).
 *
 * <p>{@link #main(String[])} runs the same broker as a stand-alone process (see
 * {@link ChildProcessKafkaBroker}).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    /** The line {@link #main(String[])} prints on stdout once the broker answers, followed by its bootstrap address. */
    public static final String READY_LINE_PREFIX = "KAFKA READY ";
    /** How long {@link #start(Config)} waits for the broker to answer an Admin call. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
    /** The sub-directory of the data directory that holds the Kafka logs and the metadata log. */
    public static final String LOG_DIR_NAME = "kafka-logs";

    static final int NODE_ID = 1;
    static final String HOST = "localhost";
    static final String BROKER_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final int ATTEMPTS_WITH_PICKED_PORTS = 3;
    /** A start-up that waited this long for the fencing of an old incarnation says so in the log. */
    private static final Duration FENCE_WAIT_WORTH_LOGGING = Duration.ofMillis(500);

    /** Tests turn this off to reach Kafka's own bind failures. */
    static volatile boolean checkPortsBeforeStart = true;

    /**
     * What to start.
     *
     * @param dataDir        where the broker keeps its storage (created when missing)
     * @param port           the PLAINTEXT port on localhost; 0 picks a free one
     * @param controllerPort the KRaft controller port on localhost; 0 picks a free one
     * @param overrides      broker properties applied last, over this class's defaults
     */
    public record Config(Path dataDir, int port, int controllerPort, Map<String, String> overrides) {
        public Config {
            Objects.requireNonNull(dataDir, "dataDir");
            checkPort(port, "port");
            checkPort(controllerPort, "controllerPort");
            if (port != 0 && port == controllerPort) {
                throw new IllegalArgumentException("port and controllerPort must differ, both are " + port);
            }
            overrides = Map.copyOf(overrides == null ? Map.of() : overrides);
        }

        /** Free ports, no overrides. */
        public static Config of(Path dataDir) {
            return new Config(dataDir, 0, 0, Map.of());
        }

        public Config withPort(int newPort) {
            return new Config(dataDir, newPort, controllerPort, overrides);
        }

        public Config withControllerPort(int newControllerPort) {
            return new Config(dataDir, port, newControllerPort, overrides);
        }

        public Config withOverride(String key, String value) {
            Map<String, String> merged = new LinkedHashMap<>(overrides);
            merged.put(key, value);
            return new Config(dataDir, port, controllerPort, merged);
        }

        /** The directory holding the Kafka logs (and the KRaft metadata log). */
        public Path logDir() {
            return dataDir.resolve(LOG_DIR_NAME);
        }

        private static void checkPort(int p, String name) {
            if (p < 0 || p > 65535) {
                throw new IllegalArgumentException(name + " must be within 0..65535, was " + p);
            }
        }
    }

    /** Thrown when the broker cannot be started; the message names the ports and the data directory. */
    public static final class StartException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public StartException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Config config;
    private final StagedKafkaServer server;
    private final String clusterId;
    private final Duration startupTime;
    private final AtomicReference<String> fatalFault;
    private final DataDirLock lock;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedKafkaBroker(Config config, StagedKafkaServer server, String clusterId, Duration startupTime,
                                AtomicReference<String> fatalFault, DataDirLock lock) {
        this.fatalFault = fatalFault;
        this.lock = lock;
        this.config = config;
        this.server = server;
        this.clusterId = clusterId;
        this.startupTime = startupTime;
    }

    /** Starts a broker and waits (up to {@link #DEFAULT_START_TIMEOUT}) until it answers an Admin call. */
    public static EmbeddedKafkaBroker start(Config config) {
        return start(config, DEFAULT_START_TIMEOUT);
    }

    /**
     * Starts a broker and waits until an Admin client sees it in the cluster description.
     *
     * @throws StartException when it is not ready within {@code timeout} or fails to start (port in use,
     *                        data directory locked by another broker or formatted for another node, ...)
     */
    public static EmbeddedKafkaBroker start(Config config, Duration timeout) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(timeout, "timeout");
        long startedAt = System.nanoTime();
        long deadline = startedAt + timeout.toNanos();
        for (int attempt = 1; ; attempt++) {
            Config resolved = resolvePorts(config);
            try {
                EmbeddedKafkaBroker broker = startOnce(resolved, startedAt, deadline);
                LOG.info("Embedded Kafka broker ready at {} in {} ms (cluster id {}, data dir {})",
                        broker.bootstrapServers(), broker.startupTime.toMillis(), broker.clusterId,
                        resolved.dataDir().toAbsolutePath());
                return broker;
            } catch (StartException e) {
                // A port picked as free was taken by someone else meanwhile: pick again.
                if (attempt < ATTEMPTS_WITH_PICKED_PORTS && isBindFailureOnPickedPort(e, config, resolved)
                        && System.nanoTime() < deadline) {
                    LOG.warn("Picked port was taken meanwhile ({}), retrying with other ports", e.getMessage());
                    continue;
                }
                throw e;
            }
        }
    }

    private static EmbeddedKafkaBroker startOnce(Config config, long startedAt, long deadline) {
        String where = describe(config);
        if (checkPortsBeforeStart) {
            checkPortFree(config.port(), "port", where);
            checkPortFree(config.controllerPort(), "controller port", where);
        }

        DataDirLock lock = DataDirLock.acquire(config.dataDir(), where);
        String clusterId;
        KafkaConfig kafkaConfig;
        try {
            Files.createDirectories(config.logDir());
            kafkaConfig = new KafkaConfig(brokerProperties(config, remaining(deadline)), false);
            clusterId = formatIfNeeded(config);
        } catch (Exception e) {
            lock.close();
            throw new StartException("Cannot configure or format the Kafka storage for " + where + ": " + e, e);
        }

        StagedKafkaServer server = null;
        AtomicReference<String> fatalFault = new AtomicReference<>();
        FatalFaultGuard.acquire(fatalFault);
        try {
            server = new StagedKafkaServer(kafkaConfig, NODE_ID);
            Duration fenceWait = server.startup(deadline);
            if (fenceWait.toMillis() >= FENCE_WAIT_WORTH_LOGGING.toMillis()) {
                LOG.info("Waited {} ms for the controller to fence the previous incarnation of broker {} (it did not "
                        + "stop cleanly) before starting the broker on {}", fenceWait.toMillis(), NODE_ID, where);
            }
            awaitAnswer(bootstrapServers(config), deadline, where);
        } catch (Throwable e) {
            if (server != null) {
                shutdownQuietly(server);
            }
            FatalFaultGuard.release(fatalFault);
            lock.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (e instanceof StartException se) {
                throw se;
            }
            if (e instanceof Error err && !(e instanceof LinkageError) && !(e instanceof AssertionError)) {
                throw err;
            }
            throw new StartException("Kafka broker failed to start for " + where + ": " + rootMessage(e), e);
        }
        return new EmbeddedKafkaBroker(config, server, clusterId, Duration.ofNanos(System.nanoTime() - startedAt),
                fatalFault, lock);
    }

    /** {@code localhost:<port>}. */
    public String bootstrapServers() {
        return bootstrapServers(config);
    }

    /** The configuration with the ports actually used (never 0). */
    public Config config() {
        return config;
    }

    public int port() {
        return config.port();
    }

    public int controllerPort() {
        return config.controllerPort();
    }

    public Path dataDir() {
        return config.dataDir();
    }

    /** The cluster id stored in the data directory (kept across restarts). */
    public String clusterId() {
        return clusterId;
    }

    /** From the call of {@code start} until the broker answered an Admin call. */
    public Duration startupTime() {
        return startupTime;
    }

    /**
     * The fatal fault Kafka reported while this broker ran, if any. Kafka would halt the process on such a
     * fault; in this JVM it is logged and recorded instead, and the broker must be considered failed.
     * (Kafka's exit procedure is JVM-wide: with several embedded brokers, each records any fault.)
     */
    public Optional<String> fatalFault() {
        return Optional.ofNullable(fatalFault.get());
    }

    /** Stops the broker (controlled shutdown) and waits for it. Safe to call more than once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            shutdownQuietly(server);
        } finally {
            FatalFaultGuard.release(fatalFault);
            lock.close();
        }
        LOG.info("Embedded Kafka broker at {} stopped in {} ms", bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    // ---------------------------------------------------------------------------------------------
    // configuration and storage

    /** The broker properties this class runs with: defaults, then {@link Config#overrides()}. */
    static Properties brokerProperties(Config config, Duration startTimeout) {
        if (config.port() == 0 || config.controllerPort() == 0) {
            throw new IllegalArgumentException("ports must be resolved first: " + config);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + config.controllerPort());
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listeners", BROKER_LISTENER + "://" + HOST + ":" + config.port() + ","
                + CONTROLLER_LISTENER + "://" + HOST + ":" + config.controllerPort());
        p.put("advertised.listeners", BROKER_LISTENER + "://" + HOST + ":" + config.port());
        p.put("inter.broker.listener.name", BROKER_LISTENER);
        p.put("listener.security.protocol.map",
                BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("log.dirs", config.logDir().toAbsolutePath().toString());

        // One node: every internal topic with one replica; exactly_once_v2 needs the transaction log ones.
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "10");
        p.put("offsets.topic.segment.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "10");
        p.put("transaction.state.log.segment.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "10");
        p.put("group.initial.rebalance.delay.ms", "0");

        // Sized for a developer machine (2 cores): few threads, small segments and buffers.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.replica.fetchers", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        p.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
        p.put("log.index.size.max.bytes", Integer.toString(1024 * 1024));
        p.put("log.retention.check.interval.ms", "60000");

        // Broker registration: a quicker first heartbeat gets a one-node cluster unfenced sooner. After an
        // unclean stop (kill -9, crash) the restarted controller fences the old incarnation only when its
        // session expires, and StagedKafkaServer starts the broker only after that: the session timeout is
        // what such a restart waits for (6 s here instead of Kafka's 9 s). Not shorter: a live broker that
        // misses heartbeats for that long (a long pause on a loaded machine) is fenced, and every partition
        // is leaderless for a moment.
        p.put("broker.heartbeat.interval.ms", "500");
        p.put("broker.session.timeout.ms", "6000");
        p.put("server.max.startup.time.ms", Long.toString(Math.max(1, startTimeout.toMillis())));

        p.putAll(config.overrides());
        Properties props = new Properties();
        props.putAll(p);
        return props;
    }

    /**
     * Formats the storage when it has no {@code meta.properties}; returns the cluster id either way.
     */
    static String formatIfNeeded(Config config) throws Exception {
        Path logDir = config.logDir().toAbsolutePath();
        Path metaProperties = logDir.resolve("meta.properties");
        if (Files.exists(metaProperties)) {
            Properties meta = new Properties();
            try (InputStream in = Files.newInputStream(metaProperties)) {
                meta.load(in);
            }
            String existing = meta.getProperty("cluster.id");
            String nodeId = meta.getProperty("node.id");
            if (existing == null || !Integer.toString(NODE_ID).equals(nodeId)) {
                throw new IllegalStateException(metaProperties + " is not a storage of this single-node broker "
                        + "(cluster.id=" + existing + ", node.id=" + nodeId + ")");
            }
            return existing;
        }
        String clusterId = Uuid.randomUuid().toString();
        long t0 = System.nanoTime();
        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(NODE_ID)
                .setClusterId(clusterId)
                .setControllerListenerName(CONTROLLER_LISTENER)
                .setMetadataLogDirectory(logDir.toString())
                .addDirectory(logDir.toString())
                .setHasDynamicQuorum(false)       // static controller.quorum.voters
                .setWriteBootstrapSnapshot(true)  // this node is a controller
                .run();
        LOG.info("Formatted Kafka storage {} with cluster id {} in {} ms", logDir, clusterId,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        return clusterId;
    }

    // ---------------------------------------------------------------------------------------------
    // helpers

    static String bootstrapServers(Config config) {
        return HOST + ":" + config.port();
    }

    static Config resolvePorts(Config config) {
        int port = config.port() == 0 ? freePort(config.controllerPort()) : config.port();
        int controllerPort = config.controllerPort() == 0 ? freePort(port) : config.controllerPort();
        return new Config(config.dataDir(), port, controllerPort, config.overrides());
    }

    /** A port that was free on localhost a moment ago, other than {@code notThis}. */
    static int freePort(int notThis) {
        for (int i = 0; i < 10; i++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
                int p = socket.getLocalPort();
                if (p != notThis) {
                    return p;
                }
            } catch (IOException e) {
                throw new StartException("Cannot find a free port on " + HOST + ": " + e, e);
            }
        }
        throw new StartException("Cannot find a free port on " + HOST, null);
    }

    private static void checkPortFree(int port, String what, String where) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
        } catch (IOException e) {
            throw new StartException("Kafka broker cannot start for " + where + ": " + what + " " + port + " on "
                    + HOST + " is already in use (" + e.getMessage() + ")", e);
        }
    }

    private static void awaitAnswer(String bootstrap, long deadline, String where) throws InterruptedException {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "embedded-kafka-readiness");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "200");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        Throwable last = null;
        try (Admin admin = Admin.create(props)) {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                int timeoutMs = (int) Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 5000));
                try {
                    Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs))
                            .nodes().get(timeoutMs + 1000L, TimeUnit.MILLISECONDS);
                    if (nodes.stream().anyMatch(n -> n.id() == NODE_ID)) {
                        return;
                    }
                    last = new IllegalStateException("broker not yet in the cluster description: " + nodes);
                } catch (ExecutionException e) {
                    last = e.getCause();
                } catch (TimeoutException e) {
                    last = e;
                }
            }
        }
        throw new StartException("Kafka broker for " + where + " did not answer an Admin call in time"
                + (last == null ? "" : ": " + rootMessage(last)), last);
    }

    private static void shutdownQuietly(StagedKafkaServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (Throwable e) {
            LOG.warn("Error while stopping the Kafka broker", e);
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static String describe(Config config) {
        return HOST + ":" + config.port() + " (controller port " + config.controllerPort() + ", data dir "
                + config.dataDir().toAbsolutePath() + ")";
    }

    /** Whether {@code e} is about binding a port that this class picked (not one the caller asked for). */
    private static boolean isBindFailureOnPickedPort(Throwable e, Config requested, Config resolved) {
        boolean bindFailure = false;
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            bindFailure |= t instanceof BindException
                    || (t.getMessage() != null && t.getMessage().contains("already in use"));
            messages.append(' ').append(t.getMessage());
        }
        if (!bindFailure) {
            return false;
        }
        String text = messages.toString();
        boolean onRequestedPort = (requested.port() != 0 && mentionsPort(text, requested.port()))
                || (requested.controllerPort() != 0 && mentionsPort(text, requested.controllerPort()));
        boolean onPickedPort = (requested.port() == 0 && mentionsPort(text, resolved.port()))
                || (requested.controllerPort() == 0 && mentionsPort(text, resolved.controllerPort()));
        return onPickedPort && !onRequestedPort;
    }

    private static boolean mentionsPort(String text, int port) {
        return text.matches("(?s).*(?<![0-9])" + port + "(?![0-9]).*");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e) : e + " (caused by " + root + ")";
    }

    // ---------------------------------------------------------------------------------------------
    // stand-alone process

    /**
     * Runs the broker until SIGTERM (or, with {@code --exit-on-stdin-eof}, until stdin closes: the parent
     * process went away). Prints {@code KAFKA READY <bootstrap>} on stdout once it answers.
     *
     * <pre>--data-dir DIR [--port P] [--controller-port C] [--override key=value]... [--exit-on-stdin-eof]</pre>
     */
    public static void main(String[] args) throws Exception {
        Path dataDir = null;
        int port = 0;
        int controllerPort = 0;
        boolean exitOnStdinEof = false;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, arg));
                case "--port" -> port = Integer.parseInt(value(args, ++i, arg));
                case "--controller-port" -> controllerPort = Integer.parseInt(value(args, ++i, arg));
                case "--override" -> {
                    String kv = value(args, ++i, arg);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        usage("--override needs key=value, got " + kv);
                    }
                    overrides.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                case "--exit-on-stdin-eof" -> exitOnStdinEof = true;
                case "--help", "-h" -> {
                    usage(null);
                    return;
                }
                default -> usage("unknown argument " + arg);
            }
        }
        if (dataDir == null) {
            usage("--data-dir is required");
        }

        // A stand-alone broker behaves like kafka.Kafka: a fatal fault halts the process.
        FatalFaultGuard.disable();
        EmbeddedKafkaBroker broker;
        try {
            broker = start(new Config(dataDir, port, controllerPort, overrides));
        } catch (RuntimeException e) {
            System.err.println("KAFKA FAILED " + e.getMessage());
            e.printStackTrace(System.err);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "embedded-kafka-shutdown"));
        if (exitOnStdinEof) {
            Thread watcher = new Thread(() -> {
                try {
                    while (System.in.read() != -1) {
                        // ignore input; only the end of the stream matters
                    }
                } catch (IOException ignored) {
                    // treated as end of stream
                }
                System.exit(0);
            }, "embedded-kafka-stdin-watch");
            watcher.setDaemon(true);
            watcher.start();
        }
        System.out.println(READY_LINE_PREFIX + broker.bootstrapServers());
        System.out.flush();
        stopped.await();
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            usage(flag + " needs a value");
        }
        return args[i];
    }

    private static void usage(String error) {
        PrintStream out = error == null ? System.out : System.err;
        if (error != null) {
            out.println(error);
        }
        out.println("usage: " + EmbeddedKafkaBroker.class.getName()
                + " --data-dir DIR [--port P] [--controller-port C] [--override key=value]... [--exit-on-stdin-eof]");
        if (error != null) {
            System.exit(2);
        }
    }
}
