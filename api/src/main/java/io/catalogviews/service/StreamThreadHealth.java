package io.catalogviews.service;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Remembers stream-thread failures so that an operator sees a crash loop: Kafka Streams replaces a failed thread
 * (the service asks it to), and a thread that fails again and again keeps its partitions from applying events while
 * the process looks alive. {@link #problem()} names it once {@value #DEFAULT_THRESHOLD} failures fall within
 * {@link #DEFAULT_WINDOW}; readiness then answers 503 with that sentence, and a gauge says so.
 */
public final class StreamThreadHealth {

    /** Failures within the window that make the instance unready. */
    public static final int DEFAULT_THRESHOLD = 3;
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);

    private final Clock clock;
    private final int threshold;
    private final Duration window;
    private final Deque<Long> failures = new ArrayDeque<>();
    private long total;
    private String last;

    public StreamThreadHealth() {
        this(Clock.systemUTC(), DEFAULT_THRESHOLD, DEFAULT_WINDOW);
    }

    StreamThreadHealth(Clock clock, int threshold, Duration window) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be at least 1, was " + threshold);
        }
        this.clock = clock;
        this.threshold = threshold;
        this.window = window;
    }

    /** Called from the uncaught-exception handler with what killed the thread. */
    public synchronized void failed(Throwable cause) {
        failures.addLast(clock.millis());
        total++;
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        last = root.getClass().getName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        prune();
    }

    /** Failures since the start. */
    public synchronized long failures() {
        return total;
    }

    /** Whether the threads fail repeatedly now (the gauge's value). */
    public synchronized boolean failingRepeatedly() {
        prune();
        return failures.size() >= threshold;
    }

    /** The sentence readiness answers with while threads fail repeatedly, or null. */
    public synchronized String problem() {
        if (!failingRepeatedly()) {
            return null;
        }
        return "stream threads failed " + failures.size() + " times in the last " + window.toMinutes()
                + " minutes, so some partitions may not apply events (last failure: " + last + "); see the log";
    }

    private void prune() {
        long oldest = clock.millis() - window.toMillis();
        while (!failures.isEmpty() && failures.peekFirst() < oldest) {
            failures.removeFirst();
        }
    }
}
