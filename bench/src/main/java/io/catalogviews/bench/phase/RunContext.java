package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What every phase of one run shares: the settings, the console, the run's directory (logs, results) and its
 * work directory (broker, service and PostgreSQL data), and the processes and clients to stop at the end.
 */
public record RunContext(BenchSettings settings, PrintStream out, Path runDir, Path workDir, Resources resources) {

    /** A progress line of the harness ({@code [bench] …}). */
    public void say(String message) {
        out.println("[bench] " + message);
        out.flush();
    }
}
