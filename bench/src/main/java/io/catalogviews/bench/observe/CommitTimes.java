package io.catalogviews.bench.observe;

import java.util.List;
import java.util.Locale;

/**
 * Where the stream threads' exactly-once commits spend their wall time between two readings of the service's
 * {@code /metrics}: Kafka Streams' commits per thread, and per commit the time its threads' transactional producers
 * spent blocked in the three broker round trips a commit makes — {@code flush()} (waiting for the acknowledgements
 * of the records produced since the last commit), {@code sendOffsetsToTransaction} (the input offsets, through the
 * group coordinator) and {@code commitTransaction} (EndTxn). A thread blocked there applies no record, so the
 * share of the threads' wall time spent in those calls caps what they can apply, and each stage of a change pays
 * one commit before its change is visible (docs/benchmarks.md, "Method", "Commits", and "Where a change's time goes
 * in the two stages").
 *
 * @param threads  stream threads seen (a producer per thread under exactly-once v2)
 * @param seconds  wall time between the readings
 * @param commits  commits of every stream thread together
 * @param flushMs  summed over the threads, ms
 * @param offsetsMs summed over the threads, ms
 * @param endMs    summed over the threads, ms
 */
public record CommitTimes(int threads, double seconds, long commits, double flushMs, double offsetsMs, double endMs) {

    static final String COMMITS = "kafka_stream_thread_commit_total";
    static final String FLUSH = "kafka_producer_flush_time_ns_total";
    static final String OFFSETS = "kafka_producer_txn_send_offsets_time_ns_total";
    static final String END = "kafka_producer_txn_commit_time_ns_total";

    /**
     * The commits between {@code before} and {@code after}, taken {@code seconds} apart; null when either reading
     * failed or holds no stream-thread commit series (a service without exactly-once, or another version).
     */
    public static CommitTimes between(MetricsScrape before, MetricsScrape after, double seconds) {
        if (before == null || after == null || !before.ok() || !after.ok() || seconds <= 0) {
            return null;
        }
        int threads = streamThreads(after.samples());
        if (threads == 0) {
            return null;
        }
        double commits = streamSum(after.samples(), COMMITS) - streamSum(before.samples(), COMMITS);
        double flush = streamSum(after.samples(), FLUSH) - streamSum(before.samples(), FLUSH);
        double offsets = streamSum(after.samples(), OFFSETS) - streamSum(before.samples(), OFFSETS);
        double end = streamSum(after.samples(), END) - streamSum(before.samples(), END);
        if (!Double.isFinite(commits + flush + offsets + end)) {
            return null; // not counters this reading can use (sums past a double's range)
        }
        // A counter that went down (the service restarted between the readings) counts as nothing.
        return new CommitTimes(threads, seconds, Math.max(0, Math.round(commits)), nanosToMs(flush),
                nanosToMs(offsets), nanosToMs(end));
    }

    /** A reading of {@code serviceUrl}'s metrics taken now, to measure the commits from here to {@link #since}. */
    public record Reading(String serviceUrl, MetricsScrape metrics, long atNanos) {

        public static Reading now(String serviceUrl) {
            return new Reading(serviceUrl, MetricsScrape.of(serviceUrl), System.nanoTime());
        }

        /** The commits from this reading to a new one; null as {@link #between} says. */
        public CommitTimes since() {
            return between(metrics, MetricsScrape.of(serviceUrl), (System.nanoTime() - atNanos) / 1e9);
        }
    }

    /** Commits per second and thread. */
    public double commitsPerThreadSecond() {
        return commits / seconds / threads;
    }

    /** Wall time of one commit in the three round trips, ms (0 without commits). */
    public double perCommitMs() {
        return perCommit(flushMs + offsetsMs + endMs);
    }

    /** Share of the stream threads' wall time spent blocked in those round trips (0..1). */
    public double blockedShare() {
        return Math.min(1, (flushMs + offsetsMs + endMs) / (seconds * 1000 * threads));
    }

    /** "commits: 2 threads × 18.3/s; per commit 11.2 ms flush + 8.9 ms offsets + 4.1 ms EndTxn = 24.2 ms; …". */
    public String describe() {
        return String.format(Locale.ROOT, "commits: %d threads × %.1f/s; per commit %.1f ms flush + %.1f ms offsets "
                        + "+ %.1f ms EndTxn = %.1f ms; threads blocked in them %.0f %% of the time", threads,
                commitsPerThreadSecond(), perCommit(flushMs), perCommit(offsetsMs), perCommit(endMs), perCommitMs(),
                100 * blockedShare());
    }

    private double perCommit(double ms) {
        return commits == 0 ? 0 : ms / commits;
    }

    private static int streamThreads(List<PrometheusText.Sample> samples) {
        int threads = 0;
        for (PrometheusText.Sample s : samples) {
            if (s.name().equals(COMMITS) && MetricsScrape.ofStreamThread(s.labels())) {
                threads++;
            }
        }
        return threads;
    }

    private static double streamSum(List<PrometheusText.Sample> samples, String name) {
        return PrometheusText.sum(samples, name, MetricsScrape::ofStreamThread);
    }

    private static double nanosToMs(double nanos) {
        return Math.max(0, nanos) / 1e6;
    }
}
