package io.catalogviews.views.streams;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes restores visible: one log line when a store partition starts restoring (how many changelog records it
 * has to replay), a progress line at most every {@link #PROGRESS_EVERY_MS} per partition, one line when it is
 * done (records, time, rate), and {@link #remainingRecords()} for a gauge. Restores replay rows and derive their
 * index entries again, so they are CPU-bound and worth watching on large catalogs.
 */
public final class RestoreProgress implements StateRestoreListener {

    static final long PROGRESS_EVERY_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(RestoreProgress.class);

    private final Map<TopicPartition, Restore> active = new ConcurrentHashMap<>();

    private static final class Restore {
        final String store;
        final long startedAtMs;
        final long total;
        volatile long restored;
        volatile long lastLogMs;

        Restore(String store, long startedAtMs, long total) {
            this.store = store;
            this.startedAtMs = startedAtMs;
            this.total = total;
            this.lastLogMs = startedAtMs;
        }
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        long total = Math.max(0, endingOffset - startingOffset);
        active.put(partition, new Restore(storeName, System.currentTimeMillis(), total));
        LOG.info("Restoring store {} partition {} from {}: about {} changelog records (offsets {}..{})", storeName,
                partition.partition(), partition.topic(), total, startingOffset, endingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset,
                                long numRestored) {
        Restore r = active.get(partition);
        if (r == null) {
            return;
        }
        r.restored += numRestored;
        long now = System.currentTimeMillis();
        if (now - r.lastLogMs >= PROGRESS_EVERY_MS) {
            r.lastLogMs = now;
            LOG.info("Restoring store {} partition {}: {} of about {} records ({} records/s)", storeName,
                    partition.partition(), r.restored, r.total, rate(r.restored, now - r.startedAtMs));
        }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        Restore r = active.remove(partition);
        long tookMs = r == null ? 0 : System.currentTimeMillis() - r.startedAtMs;
        LOG.info("Restored store {} partition {}: {} records in {} ms ({} records/s)", storeName,
                partition.partition(), totalRestored, tookMs, rate(totalRestored, tookMs));
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        active.remove(partition);
        LOG.info("Restore of store {} partition {} suspended after {} records (the task moved)", storeName,
                partition.partition(), totalRestored);
    }

    /** Changelog records still to replay, over every store partition restoring now (an estimate). */
    public long remainingRecords() {
        long remaining = 0;
        for (Restore r : active.values()) {
            remaining += Math.max(0, r.total - r.restored);
        }
        return remaining;
    }

    private static long rate(long records, long ms) {
        return ms <= 0 ? records : records * 1000 / ms;
    }
}
