package io.catalogviews.broker;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker of {@link EmbeddedKafkaBroker}, run as a child JVM ({@code java -cp <this JVM's class path>
 * io.catalogviews.broker.EmbeddedKafkaBroker ...}), so that it can be killed with SIGKILL and started again
 * on the same ports and data directory.
 *
 * <p>The ports are fixed at {@link #start} (0 picks free ones then) and kept for every {@link #restart()}.
 * The child's stdout and stderr are appended to {@link #logFile()} under the data directory. The child
 * stops by itself when this JVM goes away (it watches its stdin).
 */
public final class ChildProcessKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChildProcessKafkaBroker.class);

    /** The file under the data directory that receives the child's output. */
    public static final String LOG_FILE_NAME = "broker-process.log";
    /** JVM options of the child: a small heap, the serial collector and C1 only start fastest on 2 cores. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of(
            "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true");
    /**
     * The JVM options of Kafka's own start script ({@code kafka-server-start.sh}: 1 GB heap, G1, full JIT): what a
     * deployment's brokers run. Slower to start than {@link #DEFAULT_JVM_OPTIONS}, cheaper per record once compiled.
     */
    public static final List<String> KAFKA_SCRIPT_JVM_OPTIONS = List.of(
            "-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true");
    /** How long {@link #stop()} waits for a graceful exit before killing the child. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final int LOG_TAIL_LINES = 30;

    private final EmbeddedKafkaBroker.Config config;
    private final Duration startTimeout;
    private final List<String> jvmOptions;
    private Process process;
    private Thread outputPump;
    private Duration lastStartupTime = Duration.ZERO;
    private boolean closed;

    private ChildProcessKafkaBroker(EmbeddedKafkaBroker.Config config, Duration startTimeout, List<String> jvmOptions) {
        this.config = config;
        this.startTimeout = startTimeout;
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /** Starts the child broker with {@link #DEFAULT_JVM_OPTIONS} and waits for it to be ready. */
    public static ChildProcessKafkaBroker start(EmbeddedKafkaBroker.Config config) {
        return start(config, EmbeddedKafkaBroker.DEFAULT_START_TIMEOUT, DEFAULT_JVM_OPTIONS);
    }

    /**
     * Starts the child broker and waits until it prints {@code KAFKA READY} (it answers an Admin call by then).
     *
     * @throws EmbeddedKafkaBroker.StartException when the child exits or is not ready within {@code timeout};
     *                                            the message ends with the tail of its output
     */
    public static ChildProcessKafkaBroker start(EmbeddedKafkaBroker.Config config, Duration timeout,
                                                List<String> jvmOptions) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(jvmOptions, "jvmOptions");
        ChildProcessKafkaBroker broker =
                new ChildProcessKafkaBroker(EmbeddedKafkaBroker.resolvePorts(config), timeout, jvmOptions);
        broker.launch();
        return broker;
    }

    /** {@code localhost:<port>}; the same across restarts. */
    public String bootstrapServers() {
        return EmbeddedKafkaBroker.bootstrapServers(config);
    }

    /** The configuration with the ports in use (never 0). */
    public EmbeddedKafkaBroker.Config config() {
        return config;
    }

    public int port() {
        return config.port();
    }

    public Path logFile() {
        return config.dataDir().resolve(LOG_FILE_NAME);
    }

    /** From launching the child JVM until it was ready, for the last (re)start. */
    public synchronized Duration lastStartupTime() {
        return lastStartupTime;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized OptionalLong pid() {
        return process == null ? OptionalLong.empty() : OptionalLong.of(process.pid());
    }

    /** Graceful stop (SIGTERM: controlled shutdown); kills the child if it has not exited after {@link #STOP_TIMEOUT}. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        long t0 = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Kafka child process {} did not stop within {}; killing it", process.pid(), STOP_TIMEOUT);
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LOG.info("Kafka child process {} at {} stopped in {} ms (exit code {})", process.pid(), bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), exitCode(process));
        reap();
    }

    /** SIGKILL: the broker gets no chance to shut down cleanly. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Kafka child process {} at {} killed", process.pid(), bootstrapServers());
        reap();
    }

    /** Stops the child if it still runs, then starts it again on the same ports and data directory. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        stop();
        launch();
    }

    /** Stops the child gracefully. Safe to call more than once. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
    }

    // ---------------------------------------------------------------------------------------------

    private synchronized void launch() {
        long t0 = System.nanoTime();
        Path logFile = logFile();
        Process child;
        try {
            Files.createDirectories(config.dataDir());
            Files.writeString(logFile, "---- starting Kafka child process for " + bootstrapServers() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            // Same working directory as this JVM, so that relative class path entries resolve alike.
            child = new ProcessBuilder(command())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new EmbeddedKafkaBroker.StartException("Cannot launch the Kafka child process for "
                    + describe() + ": " + e, e);
        }
        CompletableFuture<String> ready = new CompletableFuture<>();
        Deque<String> tail = new ArrayDeque<>();
        Thread pump = new Thread(() -> pumpOutput(child, logFile, ready, tail), "kafka-child-output-" + child.pid());
        pump.setDaemon(true);
        pump.start();
        process = child;
        outputPump = pump;

        String failure;
        Throwable cause = null;
        try {
            String bootstrap = ready.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
            lastStartupTime = Duration.ofNanos(System.nanoTime() - t0);
            LOG.info("Kafka child process {} ready at {} in {} ms (data dir {})", child.pid(), bootstrap,
                    lastStartupTime.toMillis(), config.dataDir().toAbsolutePath());
            return;
        } catch (TimeoutException e) {
            failure = "was not ready within " + startTimeout;
            cause = e;
        } catch (ExecutionException e) {
            failure = "exited before it was ready";
            cause = e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "start was interrupted";
            cause = e;
        }
        boolean interrupted = Thread.interrupted();
        try {
            // Output closed: the child is exiting by itself; let it report its own exit code.
            if (failure.startsWith("exited")) {
                child.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        child.destroyForcibly();
        try {
            child.waitFor(10, TimeUnit.SECONDS);
            pump.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        String exit = child.isAlive() ? "" : " (exit code " + child.exitValue() + ")";
        process = null;
        outputPump = null;
        String lastLines;
        synchronized (tail) {
            lastLines = String.join("\n", tail);
        }
        throw new EmbeddedKafkaBroker.StartException("Kafka child process for " + describe() + " " + failure + exit
                + "; log " + logFile + ", last lines:\n" + lastLines, cause);
    }

    private List<String> command() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(EmbeddedKafkaBroker.class.getName());
        cmd.add("--data-dir");
        cmd.add(config.dataDir().toAbsolutePath().toString());
        cmd.add("--port");
        cmd.add(Integer.toString(config.port()));
        cmd.add("--controller-port");
        cmd.add(Integer.toString(config.controllerPort()));
        cmd.add("--exit-on-stdin-eof");
        for (Map.Entry<String, String> e : config.overrides().entrySet()) {
            cmd.add("--override");
            cmd.add(e.getKey() + "=" + e.getValue());
        }
        return cmd;
    }

    /** Copies the child's output to the log file, spotting the ready line on the way; ends at the child's exit. */
    private static void pumpOutput(Process child, Path logFile, CompletableFuture<String> ready, Deque<String> tail) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                     StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.newLine();
                out.flush();
                if (!ready.isDone()) {
                    synchronized (tail) {
                        tail.addLast(line);
                        if (tail.size() > LOG_TAIL_LINES) {
                            tail.removeFirst();
                        }
                    }
                    if (line.startsWith(EmbeddedKafkaBroker.READY_LINE_PREFIX)) {
                        ready.complete(line.substring(EmbeddedKafkaBroker.READY_LINE_PREFIX.length()).trim());
                    }
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        } finally {
            ready.completeExceptionally(new IllegalStateException("the child process closed its output"));
        }
    }

    private void reap() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already gone
        }
        if (outputPump != null) {
            try {
                outputPump.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        process = null;
        outputPump = null;
    }

    private static String exitCode(Process p) {
        return p.isAlive() ? "still running" : Integer.toString(p.exitValue());
    }

    private String describe() {
        return "localhost:" + config.port() + " (controller port " + config.controllerPort() + ", data dir "
                + config.dataDir().toAbsolutePath() + ")";
    }
}
