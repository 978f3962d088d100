package io.catalogviews.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * PostgreSQL 15 as {@code bench/scripts/postgres.sh} runs it (installed when missing, {@code initdb} into the run's
 * work directory, 127.0.0.1 on a free port, trust auth); {@link #close()} stops it.
 */
public final class PostgresServer implements AutoCloseable {

    private final Path script;
    private final Path data;
    private final int port;

    private PostgresServer(Path script, Path data, int port) {
        this.script = script;
        this.data = data;
        this.port = port;
    }

    /**
     * Starts PostgreSQL on {@code port} with {@code sharedBuffersMb} of shared buffers, its data under
     * {@code workDir/postgres}; the script's output goes to {@code log}.
     */
    public static PostgresServer start(Path workDir, int port, long sharedBuffersMb, Path log)
            throws IOException, InterruptedException {
        Path script = workDir.resolve("postgres.sh");
        try (InputStream in = PostgresServer.class.getResourceAsStream("/io/catalogviews/bench/scripts/postgres.sh")) {
            if (in == null) {
                throw new IllegalStateException("postgres.sh is missing from the harness jar");
            }
            Files.copy(in, script);
        }
        script.toFile().setExecutable(true);
        Path data = workDir.resolve("postgres").toAbsolutePath();
        // The data directory's parents must be reachable by the postgres user when running as root.
        for (Path p = data.getParent(); p != null; p = p.getParent()) {
            p.toFile().setExecutable(true, false);
        }
        Process p = new ProcessBuilder("bash", script.toString(), "start", data.toString(), Integer.toString(port),
                Long.toString(sharedBuffersMb)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("postgres.sh start failed; see " + log + ":\n" + Files.readString(log));
        }
        return new PostgresServer(script, data, port);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?reWriteBatchedInserts=true";
    }

    /** The postmaster's process id (its per-connection children count in its CPU), or -1 when unknown. */
    public long pid() {
        try {
            return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        Process stop = new ProcessBuilder("bash", script.toString(), "stop", data.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            stop.waitFor(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
