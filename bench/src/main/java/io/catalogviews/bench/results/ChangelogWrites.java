package io.catalogviews.bench.results;

import java.util.Map;

/**
 * What the service wrote to its changelog topics for a number of applied changes (issue 15), from before the churn
 * to after it, divided by the changes applied: the bytes its stream threads' producers sent to its
 * {@code *-changelog} topics ({@code kafka_producer_topic_byte_total} in {@code GET /metrics}: record batches as sent,
 * compressed, headers included) and the growth of those topics' end offsets (transaction markers included). Before
 * 2026-12-06 the bytes were the growth of the topics' logs on the broker ({@code describeLogDirs}), kept here as
 * {@code logGrowthBytes}: the changelogs are compacted, and with 4 MB segments the cleaner shrinks them while the
 * churn runs, so that growth under-counts (it was below zero in runs of 2026-12-06); it is the figure when the
 * service's metrics have no producer series.
 *
 * @param bytesWrittenByTopic what each changelog topic was sent (or, without producer series, its log's growth)
 * @param logGrowthBytes      the growth of the changelog topics' logs on the broker, in bytes
 */
public record ChangelogWrites(long changesApplied, long bytesBefore, long bytesAfter, long bytesWritten,
                              long offsetsWritten, double bytesPerChange, double offsetsPerChange,
                              Map<String, Long> bytesWrittenByTopic, String note, long logGrowthBytes) {

    public ChangelogWrites {
        bytesWrittenByTopic = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(bytesWrittenByTopic));
    }

    public static final String NOTE = "bytes: what the service's stream-thread producers sent to its *-changelog "
            + "topics during the churn (kafka_producer_topic_byte_total in GET /metrics; compressed batches as sent), "
            + "or, without those series, the growth of the topics' logs (Admin.describeLogDirs; logGrowthBytes, which "
            + "the log cleaner shrinks); bytesBefore/bytesAfter: the logs' sizes; offsets: the growth of the topics' "
            + "end offsets, one transaction marker per partition and commit included";
}
