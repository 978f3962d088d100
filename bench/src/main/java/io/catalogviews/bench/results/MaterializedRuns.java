package io.catalogviews.bench.results;

import java.util.List;

/**
 * One kind of write, materialized ({@code newProducts}, {@code changes} of {@code load}; {@code materialized} of
 * {@code churn}): its events published in {@code --runs} parts, each timed from its first send until every view had
 * caught up (the load phase's check), before the next part starts.
 *
 * @param each the parts, in order (a later part of a load writes into fuller stores than an earlier one)
 */
public record MaterializedRuns(String kind, long events, List<Part> each, double medianPerSecond,
                               double minPerSecond, double maxPerSecond) {

    /** One part: its events, how long publishing them took, and how long until every view had applied them. */
    public record Part(long events, double publishSeconds, double seconds, double perSecond) {
    }

    public static MaterializedRuns of(String kind, List<Part> parts) {
        List<Double> rates = parts.stream().map(Part::perSecond).toList();
        return new MaterializedRuns(kind, parts.stream().mapToLong(Part::events).sum(), List.copyOf(parts),
                Stats.median(rates), Stats.min(rates), Stats.max(rates));
    }

    public double seconds() {
        return each.stream().mapToDouble(Part::seconds).sum();
    }

    public double publishSeconds() {
        return each.stream().mapToDouble(Part::publishSeconds).sum();
    }
}
