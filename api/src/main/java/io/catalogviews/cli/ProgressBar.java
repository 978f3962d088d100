package io.catalogviews.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line text progress bar with a rate, redrawn at most ten times a second. Public for the benchmark harness
 * (module {@code bench}), which shows its phases with it. Not thread-safe: one thread draws.
 */
public final class ProgressBar {

    private static final int WIDTH = 30;
    private final PrintStream out;
    private final String label;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long lastDrawNanos;

    public ProgressBar(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = Math.max(1, total);
    }

    public void update(long done) {
        long now = System.nanoTime();
        if (done < total && now - lastDrawNanos < 100_000_000L) {
            return;
        }
        lastDrawNanos = now;
        int filled = (int) Math.max(0, Math.min(WIDTH, WIDTH * done / total));
        double seconds = Math.max(1e-3, (now - startNanos) / 1e9);
        out.printf(Locale.ROOT, "\r%-22s [%s%s] %,d/%,d  %,.0f/s ", label, "#".repeat(filled),
                " ".repeat(WIDTH - filled), done, total, done / seconds);
        out.flush();
    }

    public void finish(long done) {
        lastDrawNanos = 0;
        update(done);
        out.println();
    }
}
