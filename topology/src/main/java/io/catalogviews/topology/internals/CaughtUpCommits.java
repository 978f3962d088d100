package io.catalogviews.topology.internals;

import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.time.Duration;
import java.util.Map;

/**
 * Commits early while a stream thread keeps up with its input: after a record published less than
 * {@value #DEFAULT_CAUGHT_UP_WITHIN_MS} ms ago, the thread's tasks are asked to commit, at most once per
 * {@value #DEFAULT_INTERVAL_MS} ms per thread, instead of waiting for {@code commit.interval.ms}.
 *
 * <p>Why: under exactly-once a change is readable only after the commit that follows it (in the product view and
 * its category pages at once), so freshness has a floor of one commit interval. A short interval everywhere is not the
 * answer: where the reads leave no headroom, each commit's broker round trips slow the threads down until the backlog
 * grows (docs/benchmarks.md, step 8). A record's age tells the two cases apart: a fresh record means the thread is near
 * the end of its input, so a commit now makes the change visible sooner at little cost; an old one means a backlog,
 * where the usual interval batches more per commit. Under exactly-once v2 a thread commits all its tasks together,
 * hence one gate per thread. A fresh record that arrives while the gate is shut is not forgotten: its task schedules a
 * tick (a wall-clock punctuation every interval) and asks from there, so the last change of a burst waits one more
 * interval at most, not a whole {@code commit.interval.ms}. The tick runs only while such a record waits: Kafka Streams
 * marks a task as needing a commit after each of its wall-clock punctuations, so a tick always scheduled would make
 * every idle task commit at every interval. (Kafka Streams honours a request only from a task that has something to
 * commit, so each task asks for itself.)
 *
 * <p>Configured through the Kafka Streams properties (the service's {@code --streams-config}):
 * {@value #INTERVAL_CONFIG} (0 turns early commits off) and {@value #CAUGHT_UP_WITHIN_CONFIG}. A record's age is
 * measured from its timestamp (the producer's), so a producer clock far behind this machine's only turns early
 * commits off.
 */
public final class CaughtUpCommits {

    public static final String INTERVAL_CONFIG = "catalog.views.caught-up.commit.interval.ms";
    public static final long DEFAULT_INTERVAL_MS = 50;
    public static final String CAUGHT_UP_WITHIN_CONFIG = "catalog.views.caught-up.within.ms";
    public static final long DEFAULT_CAUGHT_UP_WITHIN_MS = 1_000;

    /** Per stream thread: when one of its tasks last asked for a commit (wall clock ms). */
    private static final ThreadLocal<long[]> LAST_REQUEST_BY_THREAD = ThreadLocal.withInitial(() -> new long[1]);

    private final ProcessorContext<?, ?> context;
    private final long intervalMs;
    private final long caughtUpWithinMs;
    private final ThreadLocal<long[]> lastRequest;
    /** The task's tick while a fresh record it took waits for the gate; null otherwise. */
    private Cancellable tick;

    CaughtUpCommits(ProcessorContext<?, ?> context, long intervalMs, long caughtUpWithinMs,
                    ThreadLocal<long[]> lastRequest) {
        if (intervalMs < 0) {
            throw new IllegalArgumentException(INTERVAL_CONFIG + " must be 0 (off) or a positive number of ms, was "
                    + intervalMs);
        }
        if (caughtUpWithinMs < 0) {
            throw new IllegalArgumentException(CAUGHT_UP_WITHIN_CONFIG + " must not be negative, was "
                    + caughtUpWithinMs);
        }
        this.context = context;
        this.intervalMs = intervalMs;
        this.caughtUpWithinMs = caughtUpWithinMs;
        this.lastRequest = lastRequest;
    }

    /**
     * The policy of a processor's task, as the application's properties set it (defaults for what they leave out);
     * call from {@code init}.
     */
    public static CaughtUpCommits of(ProcessorContext<?, ?> context) {
        Map<String, Object> configs = context.appConfigs();
        return new CaughtUpCommits(context, millis(configs, INTERVAL_CONFIG, DEFAULT_INTERVAL_MS),
                millis(configs, CAUGHT_UP_WITHIN_CONFIG, DEFAULT_CAUGHT_UP_WITHIN_MS), LAST_REQUEST_BY_THREAD);
    }

    private static long millis(Map<String, Object> configs, String key, long defaultValue) {
        Object value = configs.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds, was '" + value + "'", e);
        }
    }

    /** Called by the processor for each record it takes: asks for a commit when the record is fresh and it is time. */
    public void onRecord(long recordTimestampMs) {
        if (intervalMs == 0) {
            return;
        }
        long now = context.currentSystemTimeMs();
        if (recordTimestampMs < now - caughtUpWithinMs) {
            return; // behind: the usual interval batches more per commit (written so that no timestamp overflows)
        }
        askIfDue(now);
    }

    private void askIfDue(long now) {
        long[] last = lastRequest.get();
        long since = now - last[0];
        if (since >= 0 && since < intervalMs) { // (a clock set back counts as time passed)
            if (tick == null) {
                tick = context.schedule(Duration.ofMillis(intervalMs), PunctuationType.WALL_CLOCK_TIME, this::askIfDue);
            }
            return;
        }
        last[0] = now;
        if (tick != null) {
            tick.cancel();
            tick = null;
        }
        context.commit();
    }
}
