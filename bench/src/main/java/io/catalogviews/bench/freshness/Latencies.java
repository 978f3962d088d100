package io.catalogviews.bench.freshness;

import io.catalogviews.bench.results.ViewFreshness;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Latencies collected by many threads, in nanoseconds; percentiles in milliseconds. */
final class Latencies {

    private long[] values = new long[1024];
    private int count;

    synchronized void add(long nanos) {
        if (count == values.length) {
            values = Arrays.copyOf(values, count * 2);
        }
        values[count++] = Math.max(0, nanos);
    }

    synchronized int count() {
        return count;
    }

    /** The sorted values so far. */
    synchronized long[] sorted() {
        long[] s = Arrays.copyOf(values, count);
        Arrays.sort(s);
        return s;
    }

    /**
     * Stops {@code probes} from taking new work, lets the probes under way finish for up to {@code wait}, then the
     * figures of {@code view} from the latencies collected (the ones still under way then are left out).
     */
    ViewFreshness finish(ExecutorService probes, Duration wait, String view, long started, long timeouts,
                         long superseded, long errors, Double pollIntervalMs) {
        probes.shutdown();
        try {
            probes.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        probes.shutdownNow();
        long[] sorted = sorted();
        return ViewFreshness.of(view, started, timeouts, superseded, errors, percentileMs(sorted, 0.5),
                percentileMs(sorted, 0.95), percentileMs(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6, pollIntervalMs);
    }

    /** The {@code p} percentile (nearest rank) of {@code sorted}, in milliseconds; 0 for none. */
    static double percentileMs(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
    }
}
