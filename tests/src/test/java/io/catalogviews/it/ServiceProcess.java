package io.catalogviews.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * One service instance as its own JVM, started from the built executable jar ({@code catalog-views.jar}),
 * the way users run it. Output goes to {@code <stateDir>/process.log}.
 */
public final class ServiceProcess implements AutoCloseable {

    /** Test settings: failover and rebalances fit in a test (production values in docs/operations.md). */
    public static final Map<String, String> FAST_GROUP_SETTINGS = Map.of(
            "session.timeout.ms", "6000",
            "heartbeat.interval.ms", "1000",
            "max.poll.interval.ms", "30000",
            "probing.rebalance.interval.ms", "60000");

    private Process process;
    private final List<String> command;
    private final int httpPort;
    private final Path stateDir;
    private final HttpTestClient http;

    private ServiceProcess(Process process, List<String> command, int httpPort, Path stateDir) {
        this.process = process;
        this.command = List.copyOf(command);
        this.httpPort = httpPort;
        this.stateDir = stateDir;
        this.http = new HttpTestClient(url());
    }

    public static Path jar() {
        String configured = System.getProperty("catalogViews.jar");
        Path jar = configured != null ? Path.of(configured) : Path.of("../api/target/catalog-views.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the executable jar " + jar.toAbsolutePath() + " is missing; build the "
                    + "api module first (mvn -B verify builds it before the tests)");
        }
        return jar;
    }

    public static ServiceProcess start(String bootstrapServers, String applicationId, Path stateDir, int partitions,
                                       int standbyReplicas) {
        return start(bootstrapServers, applicationId, stateDir, partitions, standbyReplicas, freePort());
    }

    public static ServiceProcess start(String bootstrapServers, String applicationId, Path stateDir, int partitions,
                                       int standbyReplicas, int port) {
        return start(bootstrapServers, applicationId, stateDir, partitions, standbyReplicas, port, List.of());
    }

    /** @param extraArgs more {@code serve} flags, after the ones every test instance gets */
    public static ServiceProcess start(String bootstrapServers, String applicationId, Path stateDir, int partitions,
                                       int standbyReplicas, int port, List<String> extraArgs) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-jar", jar().toAbsolutePath().toString(), "serve",
                "--bootstrap-servers", bootstrapServers,
                "--http-port", Integer.toString(port),
                "--advertised-url", "http://localhost:" + port,
                "--state-dir", stateDir.toAbsolutePath().toString(),
                "--application-id", applicationId,
                "--input-topic", inputTopic(applicationId),
                "--partitions", Integer.toString(partitions),
                "--standby-replicas", Integer.toString(standbyReplicas),
                "--rocksdb-memory-mb", "32"));
        FAST_GROUP_SETTINGS.forEach((k, v) -> {
            command.add("--streams-config");
            command.add(k + "=" + v);
        });
        command.addAll(extraArgs);
        return new ServiceProcess(launch(command, stateDir), command, port, stateDir);
    }

    private static Process launch(List<String> command, Path stateDir) {
        try {
            Files.createDirectories(stateDir);
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(stateDir.resolve("process.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    /** kill -9: no shutdown hook, no group leave, stores left as the crash left them. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the same instance again: same port, state dir and flags. */
    public ServiceProcess restart() {
        if (process.isAlive()) {
            throw new IllegalStateException("instance on port " + httpPort + " is still running");
        }
        process = launch(command, stateDir);
        return this;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until {@code /health/ready} answers 200. */
    public ServiceProcess awaitReady(Duration timeout) {
        await().alias("instance on port " + httpPort + " is ready").atMost(timeout)
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("instance on port " + httpPort + " exited with "
                                + process.exitValue() + "; log: " + log());
                    }
                    return http.get("/health/ready").status() == 200;
                });
        return this;
    }

    /** Each test deployment gets its own input topic, named after its application id. */
    public static String inputTopic(String applicationId) {
        return applicationId + ".product-events";
    }

    public String url() {
        return "http://localhost:" + httpPort;
    }

    public String hostPort() {
        return "localhost:" + httpPort;
    }

    public HttpTestClient http() {
        return http;
    }

    public String log() {
        try {
            return Files.readString(stateDir.resolve("process.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM and wait: the clean shutdown path (leave group, stop HTTP). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(Duration.ofSeconds(40).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
