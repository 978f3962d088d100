package io.catalogviews.bench.service;

import io.catalogviews.bench.http.HttpConnection;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the harness starts ({@code java <options> -cp <class path> <main> <args>}, in the harness's environment with
 * some variables set or removed): the service under test, the HTTP ceiling or PostgreSQL's HTTP front. Output goes to
 * a log file; {@link #close()} sends SIGTERM and waits.
 */
public final class ChildJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final int httpPort;

    private ChildJvm(String name, Process process, Path log, int httpPort) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /**
     * @param environment set in the child's environment over the harness's own; an empty value removes the variable
     */
    public static ChildJvm start(String name, String classPath, List<String> jvmOptions,
                                 Map<String, String> environment, String mainClass, List<String> args, Path log,
                                 int httpPort) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            environment.forEach((variable, value) -> {
                if (value.isEmpty()) {
                    builder.environment().remove(variable);
                } else {
                    builder.environment().put(variable, value);
                }
            });
            Process p = builder.start();
            return new ChildJvm(name, p, log, httpPort);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + command, e);
        }
    }

    /** Waits until {@code GET path} answers 200 on the child's HTTP port. */
    public ChildJvm awaitHttp(String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] head = HttpConnection.get(path);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; log " + log + ":\n"
                        + tail());
            }
            try (HttpConnection c = new HttpConnection("127.0.0.1", httpPort, 2000)) {
                if (c.exchange(head, null).status() == 200) {
                    return this;
                }
            } catch (IOException e) {
                // not listening yet
            }
            sleep(200);
        }
        throw new IllegalStateException(name + " did not answer " + path + " within " + timeout + "; log " + log + ":\n"
                + tail());
    }

    public String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    public int httpPort() {
        return httpPort;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Sleeps; an interrupt ends the harness's wait with an exception (and keeps the interrupt flag). */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
