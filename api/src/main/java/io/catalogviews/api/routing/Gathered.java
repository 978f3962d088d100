package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;

import java.util.List;

/**
 * The answers of every group of keys of a {@link FanOutRead}: together they cover every key exactly once.
 *
 * @param answers    one answer per instance asked and round, in the order of {@link #servedBy}
 * @param servedBy   the instances whose stores answered, each once
 * @param lagRecords the largest lag of the standbys that answered for an owner, -1 when every owner answered
 */
public record Gathered<T>(List<T> answers, List<Instance> servedBy, long lagRecords) {

    /** Whether some answer came from a standby (mark the response {@code X-Stale}). */
    public boolean stale() {
        return lagRecords >= 0;
    }
}
