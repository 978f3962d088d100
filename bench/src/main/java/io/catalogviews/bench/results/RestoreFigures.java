package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;
import java.util.Map;

/**
 * The restore phase ({@code restore}): the service stopped, its state directory deleted, started again and timed
 * until it answers right. Either {@code skipped} alone, or what was measured in the order it was measured; when
 * a step failed, the figures of the steps before it and {@code error}.
 *
 * @param changelogs   what there was to restore (null: the phase failed before it knew)
 * @param stopSeconds  how long the clean stop took
 * @param timing       the restart, timed (null: it did not catch up)
 * @param verification the verified pass over every query class after it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RestoreFigures(String skipped, @JsonUnwrapped Changelogs changelogs, Double stopSeconds,
                             @JsonUnwrapped Timing timing, Verification verification, Double stateDirMbAfter,
                             Double serviceRssMbAfter, String error) {

    public static RestoreFigures skipped(String why) {
        return new RestoreFigures(why, null, null, null, null, null, null, null);
    }

    public static RestoreFigures failed(Changelogs changelogs, Double stopSeconds, Timing timing,
                                        Verification verification, String error) {
        return new RestoreFigures(null, changelogs, stopSeconds, timing, verification, null, null, error);
    }

    /** The changelog topics of the application, and the state directory, before the stop. */
    public record Changelogs(int products, Map<String, Long> changelogTopics, long changelogOffsets,
                             String changelogNote, double stateDirMbBefore) {

        public static final String NOTE = "end minus start offset of every partition of the application's "
                + "changelog topics: an upper bound on the records restored (exactly-once adds a transaction marker "
                + "per partition and commit; compaction may have removed records)";
    }

    /**
     * The restart, in seconds from the start of the new service process (its JVM start included).
     *
     * @param maxStoreLagSeen             the largest store lag {@code GET /v1/cluster} reported (-1: none)
     * @param checksNotRightWhileCaughtUp model checks that failed while {@code /v1/cluster} said caught up
     * @param firstProblemWhileCaughtUp   the first of them, or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Timing(double httpUpSeconds, double readySeconds, double clusterCaughtUpSeconds,
                         double restoreSeconds, double restoreSecondsAfterHttpUp, double productsPerSecond,
                         double secondsPer100kProducts, double readySecondsPer100kProducts,
                         double changelogOffsetsPerSecondToReady, long maxStoreLagSeen,
                         int checksNotRightWhileCaughtUp, String firstProblemWhileCaughtUp, String note) {

        public static final String NOTE = "times from the start of the new service process (JVM start included): "
                + "readySeconds until GET /health/ready answered 200, restoreSeconds until GET /v1/cluster said "
                + "caughtUp: true, the consumer group had no lag and GET /v1/categories and 50 sampled products "
                + "equaled the model; restoreSecondsAfterHttpUp leaves out the JVM's start (a fixed cost that "
                + "dominates small catalogs)";
    }

    /** One short verified run of every query class after the restore: the restored indexes, not only the rows. */
    public record Verification(List<String> classes, int concurrency, double secondsPerClass, long right,
                               long wrong, long errors) {
    }
}
