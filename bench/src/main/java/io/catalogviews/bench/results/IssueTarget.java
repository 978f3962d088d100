package io.catalogviews.bench.results;

/**
 * One target of issues 14 (reads) and 15 (writes) ({@code issueTargets}), as summary.md leads with them: the figure
 * this run measured (median and [min, max] over {@code --runs}) and whether it meets the target.
 *
 * @param status {@link #MET}, {@link #MISSED}, {@link #NOT_MEASURED} (the phase or class did not run), or
 *               {@link #REPORTED} (a figure the issue asks to report, with no threshold)
 */
public record IssueTarget(int issue, String target, String figure, String status) {

    public static final String MET = "met";
    public static final String MISSED = "missed";
    public static final String NOT_MEASURED = "not measured";
    public static final String REPORTED = "reported";

    public static IssueTarget judged(int issue, String target, String figure, boolean met) {
        return new IssueTarget(issue, target, figure, met ? MET : MISSED);
    }

    public static IssueTarget notMeasured(int issue, String target) {
        return new IssueTarget(issue, target, "–", NOT_MEASURED);
    }
}
