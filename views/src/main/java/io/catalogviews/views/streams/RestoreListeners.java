package io.catalogviews.views.streams;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

import java.util.List;

/** Kafka Streams takes one global restore listener: this one tells several, in the order given. */
public final class RestoreListeners implements StateRestoreListener {

    private final List<StateRestoreListener> listeners;

    private RestoreListeners(List<StateRestoreListener> listeners) {
        this.listeners = listeners;
    }

    public static StateRestoreListener of(StateRestoreListener... listeners) {
        return new RestoreListeners(List.of(listeners));
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        listeners.forEach(l -> l.onRestoreStart(partition, storeName, startingOffset, endingOffset));
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        listeners.forEach(l -> l.onBatchRestored(partition, storeName, batchEndOffset, numRestored));
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        listeners.forEach(l -> l.onRestoreEnd(partition, storeName, totalRestored));
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        listeners.forEach(l -> l.onRestoreSuspended(partition, storeName, totalRestored));
    }
}
