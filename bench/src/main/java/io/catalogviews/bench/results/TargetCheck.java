package io.catalogviews.bench.results;

/** One target of issue 5 ({@code targets}): the figure measured and whether it meets the target. */
public record TargetCheck(String target, String measured, boolean met) {
}
