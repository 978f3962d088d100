package io.catalogviews.api.routing;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The moment a read must be answered by; every call to a peer made for it waits at most until then. */
public record Deadline(long atNanos) {

    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos());
    }

    /** What is left of the budget, zero once passed. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, atNanos - System.nanoTime()));
    }

    /** Whether less than a millisecond is left: no peer could answer in time any more. */
    public boolean passed() {
        return remaining().toMillis() <= 0;
    }

    /**
     * {@code work}, failed with 504 ({@link ReadFailures#callerOutOfTime()}) when this deadline passes first. The
     * work itself is not interrupted: whatever it would write later is no longer part of the answer.
     */
    public <T> CompletableFuture<T> bound(CompletableFuture<T> work) {
        // orTimeout drops its timer once the copy completes: no timer outlives a request answered in time.
        return work.copy().orTimeout(Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        failure instanceof TimeoutException ? ReadFailures.callerOutOfTime() : failure));
    }
}
