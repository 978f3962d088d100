package io.catalogviews.bench.freshness;

import java.util.Arrays;

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

    /** The {@code p} percentile (nearest rank) of {@code sorted}, in milliseconds; 0 for none. */
    static double percentileMs(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
    }
}
