package io.catalogviews.bench.results;

import java.util.Map;

/**
 * What the service wrote to its changelog topics for a number of applied changes (issue 15): the growth of their
 * logs on the broker ({@code describeLogDirs}: bytes of every partition's log, record batches and transaction
 * markers included) and of their end offsets, from before the churn to after it, divided by the changes applied.
 * Changelogs are compacted, but the cleaner only works on closed segments (1 GB by default), so it does not shrink
 * a churn's writes while they are measured.
 *
 * @param bytesWrittenByTopic the growth of each changelog topic's logs, in bytes
 */
public record ChangelogWrites(long changesApplied, long bytesBefore, long bytesAfter, long bytesWritten,
                              long offsetsWritten, double bytesPerChange, double offsetsPerChange,
                              Map<String, Long> bytesWrittenByTopic, String note) {

    public ChangelogWrites {
        bytesWrittenByTopic = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(bytesWrittenByTopic));
    }

    public static final String NOTE = "log sizes from Admin.describeLogDirs and end offsets of the application's "
            + "*-changelog topics, before and after the churn; offsets include one transaction marker per partition "
            + "and commit";
}
