package io.catalogviews.api.routing;

import java.time.Duration;

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
}
