package io.catalogviews.bench.freshness;

import io.catalogviews.bench.results.ViewFreshness;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Latencies collected by many threads, in nanoseconds; percentiles in milliseconds. Each keeps the wall-clock time of
 * the change it measured (its acknowledgement), so that the slowest can be laid beside what else the machine did
 * then (docs/benchmarks/sampler.py samples carry the same clock).
 */
final class Latencies {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private long[] values = new long[1024];
    private long[] ackedAtMillis = new long[1024];
    private int count;

    /**
     * A latency that ends now: what it measures (a change's acknowledgement, a request's due time) began {@code nanos}
     * ago.
     */
    void add(long nanos) {
        add(nanos, System.currentTimeMillis() - nanos / 1_000_000);
    }

    synchronized void add(long nanos, long ackedAtEpochMillis) {
        if (count == values.length) {
            values = Arrays.copyOf(values, count * 2);
            ackedAtMillis = Arrays.copyOf(ackedAtMillis, count * 2);
        }
        ackedAtMillis[count] = ackedAtEpochMillis;
        values[count++] = Math.max(0, nanos);
    }

    /** One latency: when it began (epoch ms; for a probe, the change's acknowledgement) and how long it lasted. */
    record Slow(long ackedAtEpochMillis, double ms) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %.0f ms", CLOCK.format(Instant.ofEpochMilli(ackedAtEpochMillis)), ms);
        }
    }

    /** The {@code n} slowest so far, slowest first. */
    synchronized List<Slow> slowest(int n) {
        List<Slow> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(new Slow(ackedAtMillis[i], values[i] / 1e6));
        }
        all.sort(Comparator.comparingDouble(Slow::ms).reversed());
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
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
