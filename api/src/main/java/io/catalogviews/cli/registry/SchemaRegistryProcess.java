package io.catalogviews.cli.registry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real schema registry as a child process: Apicurio Registry's runnable distribution (version {@value #VERSION},
 * the newest that runs on Java 17), which the build unpacks beside the executable jar
 * ({@code api/target/schema-registry/}). {@code demo --schema-registry} starts one, and the integration tests use
 * it the way they use the child-process broker: stop it, start it again on the same port and data.
 *
 * <p>Why a child process: the registry is a Quarkus application whose jars (some of them modified copies of Kafka,
 * Jackson and Avro) clash with the service's in one JVM. Its data is an H2 database file under the data directory,
 * so a restart keeps every schema id; it listens on 127.0.0.1 only. The child's output goes to
 * {@value #LOG_FILE_NAME} in the data directory. A shutdown hook stops it when this JVM exits normally (not after a
 * SIGKILL of this JVM).
 */
public final class SchemaRegistryProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryProcess.class);

    public static final String VERSION = "3.0.9";
    public static final String RUNNER_JAR = "apicurio-registry-app-" + VERSION + "-runner.jar";
    /** Where Apicurio Registry serves the Confluent-compatible API. */
    public static final String CONFLUENT_API_PATH = "/apis/ccompat/v7";
    /** Where Apicurio Registry serves its own API (what Apicurio's serdes talk to). */
    public static final String APICURIO_API_PATH = "/apis/registry/v3";
    public static final String LOG_FILE_NAME = "registry-process.log";
    /** The distribution's folder name beside the executable jar (or its classes folder). */
    public static final String DIST_FOLDER = "schema-registry";
    /** Environment variable naming the distribution folder, when it is elsewhere. */
    public static final String DIST_ENV = "CATALOG_VIEWS_SCHEMA_REGISTRY_DIST";
    /** Up to /health/ready takes 6–8 s on 2 cores; the bound leaves room for a loaded machine. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true");

    private final Path distribution;
    private final Path dataDir;
    private final int port;
    private final Thread shutdownHook;
    private Process process;

    private SchemaRegistryProcess(Path distribution, Path dataDir, int port) {
        this.distribution = distribution;
        this.dataDir = dataDir;
        this.port = port;
        this.shutdownHook = new Thread(this::stop, "schema-registry-stop-" + port);
    }

    /**
     * Where the distribution is: {@code explicit} if given, else {@value #DIST_ENV}, else {@value #DIST_FOLDER} beside
     * the executable jar (or beside the classes folder, in the build). Empty when none holds {@value #RUNNER_JAR}.
     */
    public static Optional<Path> findDistribution(Path explicit) {
        List<Path> candidates = new ArrayList<>();
        if (explicit != null) {
            candidates.add(explicit);
        } else {
            String fromEnv = System.getenv(DIST_ENV);
            if (fromEnv != null && !fromEnv.isBlank()) {
                candidates.add(Path.of(fromEnv));
            }
            besideCode().ifPresent(candidates::add);
        }
        return candidates.stream().filter(dir -> Files.isRegularFile(dir.resolve(RUNNER_JAR))).findFirst();
    }

    /** {@value #DIST_FOLDER} beside the jar or classes folder this class was loaded from. */
    public static Optional<Path> besideCode() {
        try {
            var source = SchemaRegistryProcess.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return Optional.empty();
            }
            Path code = Path.of(source.getLocation().toURI());
            return Optional.ofNullable(code.getParent()).map(parent -> parent.resolve(DIST_FOLDER));
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts the registry and waits until {@code /health/ready} answers 200.
     *
     * @param distribution the folder holding {@value #RUNNER_JAR} and its {@code lib/}
     * @param dataDir      this registry's own folder (database, log)
     * @param port         the HTTP port on 127.0.0.1; 0 picks a free one, kept across restarts
     * @throws IllegalStateException naming the log file when it exits or is not ready in {@link #START_TIMEOUT}
     */
    public static SchemaRegistryProcess start(Path distribution, Path dataDir, int port) {
        Objects.requireNonNull(distribution, "distribution");
        Objects.requireNonNull(dataDir, "dataDir");
        if (!Files.isRegularFile(distribution.resolve(RUNNER_JAR))) {
            throw new IllegalStateException("no " + RUNNER_JAR + " in " + distribution.toAbsolutePath()
                    + "; the build unpacks Apicurio Registry there (mvn -B -pl api -am package)");
        }
        SchemaRegistryProcess registry = new SchemaRegistryProcess(distribution.toAbsolutePath(),
                dataDir.toAbsolutePath(), port == 0 ? freePort() : port);
        Runtime.getRuntime().addShutdownHook(registry.shutdownHook);
        registry.launch();
        return registry;
    }

    /** The Confluent-compatible API root, what {@code --schema-registry-url} takes. */
    public String confluentApiUrl() {
        return baseUrl() + CONFLUENT_API_PATH;
    }

    /** Apicurio's own API root, what Apicurio's serdes take as {@code apicurio.registry.url}. */
    public String apicurioApiUrl() {
        return baseUrl() + APICURIO_API_PATH;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path logFile() {
        return dataDir.resolve(LOG_FILE_NAME);
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** SIGTERM, then SIGKILL after {@link #STOP_TIMEOUT}; the data stays. Safe to call when stopped. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Schema registry {} did not stop within {}; killing it", baseUrl(), STOP_TIMEOUT);
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LOG.info("Schema registry {} stopped", baseUrl());
        process = null;
    }

    /** Starts the registry again on the same port and data, after {@link #stop()}. */
    public synchronized void restart() {
        if (isRunning()) {
            throw new IllegalStateException("the schema registry " + baseUrl() + " is still running");
        }
        launch();
    }

    @Override
    public synchronized void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) stop() itself
        }
    }

    private synchronized void launch() {
        long start = System.nanoTime();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Dquarkus.http.host=127.0.0.1");
        command.add("-Dquarkus.http.port=" + port);
        command.add("-Dquarkus.log.level=WARN");
        command.add("-Dapicurio.datasource.url=jdbc:h2:file:" + dataDir.resolve("registry-db"));
        command.add("-jar");
        command.add(distribution.resolve(RUNNER_JAR).toString());
        try {
            Files.createDirectories(dataDir);
            Files.writeString(logFile(), "---- starting Apicurio Registry " + VERSION + " on " + baseUrl() + "\n",
                    StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            process = new ProcessBuilder(command).directory(dataDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the schema registry (" + command + "): " + e.getMessage(), e);
        }
        awaitReady(start);
    }

    private void awaitReady(long start) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUrl() + "/health/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = start + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the schema registry on " + baseUrl() + " exited with code "
                        + process.exitValue() + " before it was ready; see " + logFile() + ":\n" + logTail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    LOG.info("Schema registry (Apicurio Registry {}) ready at {} in {} ms (data {})", VERSION,
                            baseUrl(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), dataDir);
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("interrupted while the schema registry started", e);
            }
            try {
                Thread.sleep(200); // polling a child process's readiness; nothing to wait on instead
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("interrupted while the schema registry started", e);
            }
        }
        stop();
        throw new IllegalStateException("the schema registry on " + baseUrl() + " was not ready within "
                + START_TIMEOUT + "; see " + logFile() + ":\n" + logTail());
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("cannot find a free port for the schema registry", e);
        }
    }
}
