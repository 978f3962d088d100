package io.catalogviews.views.store;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a view store that an active task rebuilds from its changelog (an empty store: a new instance, a wiped state
 * directory, a task moved to an instance without its state) write the replayed rows first and derive their index
 * and facet entries once, from the final rows, when the restore ends or is suspended. A changelog the broker has not
 * fully compacted holds several versions of many rows; replayed one by one, every version rewrites its row's
 * entries (old keys out, new keys in) and reads the row before it. Rows first, each product's entries are written
 * once, and the replay itself is a plain key-value restore.
 *
 * <p>Kafka Streams tells restores to one global listener, not to the store, so this listener finds the store by
 * name and partition: put it under {@link #CONFIG} in the properties the application is started with (every
 * {@link DerivedEntriesStore} registers itself when initialised) and make it part of the global restore listener.
 * Without it, stores derive entries batch by batch as they replay, as standby replicas always do. Thread-safe.
 */
public final class RowsFirstRebuilds implements StateRestoreListener {

    /** The Streams configuration key whose value is this instance's registry (an object, not a string). */
    public static final String CONFIG = "catalog.views.rows.first.rebuilds";

    private record StoreKey(String store, int partition) {
    }

    private final Map<StoreKey, DerivedEntriesStore> stores = new ConcurrentHashMap<>();
    private final AtomicLong rebuilt = new AtomicLong();

    /** The registry configured in {@code appConfigs}, or null when none is. */
    static RowsFirstRebuilds from(Map<String, Object> appConfigs) {
        return appConfigs.get(CONFIG) instanceof RowsFirstRebuilds rebuilds ? rebuilds : null;
    }

    /** Store partitions whose rows-first rebuild has derived its entries, since this instance started. */
    public long rebuilt() {
        return rebuilt.get();
    }

    void register(String store, int partition, DerivedEntriesStore instance) {
        stores.put(new StoreKey(store, partition), instance);
    }

    void unregister(String store, int partition, DerivedEntriesStore instance) {
        stores.remove(new StoreKey(store, partition), instance);
    }

    /** Called before the first replayed batch of an active task's store (standbys are never told). */
    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        DerivedEntriesStore store = storeOf(storeName, partition);
        if (store != null) {
            store.activeRestoreStarting(Math.max(0, endingOffset - startingOffset));
        }
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
    }

    /** Called on the restoring thread before the task may process or be queried as running. */
    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        DerivedEntriesStore store = storeOf(storeName, partition);
        if (store != null && store.activeRestoreEnded()) {
            rebuilt.incrementAndGet();
        }
    }

    /** The task moves (closed, or kept as a standby): its store gets its entries now, for whoever reads it next. */
    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        DerivedEntriesStore store = storeOf(storeName, partition);
        if (store != null && store.activeRestoreSuspended()) {
            rebuilt.incrementAndGet();
        }
    }

    /** The registered store of this name on the changelog partition's task, or null (a store of another kind). */
    private DerivedEntriesStore storeOf(String storeName, TopicPartition changelog) {
        return stores.get(new StoreKey(storeName, changelog.partition()));
    }
}
