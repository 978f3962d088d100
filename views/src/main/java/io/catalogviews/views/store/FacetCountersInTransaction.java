package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import org.apache.kafka.common.utils.Bytes;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The facet counters one transaction of a view store has changed, each held at its latest value until the commit
 * writes it once. A counter is read, changed and written back for every product added to or taken out of a scope
 * (two counters per scope); held here, each change is a hash-map update instead of a read and a write through Kafka
 * Streams' sorted read index of the transaction and RocksDB's batch, and a commit writes each counter it changed
 * once, however many products moved it (in a load, a few thousand counters for tens of thousands of changes).
 * Measured in docs/benchmarks.md, step 44.
 *
 * <p>Safe because only the writing thread reads counters before the commit (interactive queries read committed state)
 * and it reads them here first; the commit writes them into the same transaction as the rows that changed them, and
 * an abandoned transaction forgets them with its other writes. Not thread-safe: the writing thread's.
 */
final class FacetCountersInTransaction {

    /** Marks a counter the transaction deleted (its scope and brand have no product left). */
    private static final byte[] DELETED = new byte[0];

    private final Map<Bytes, byte[]> latest = new HashMap<>();
    private long bytes;

    /**
     * The counter under {@code key} as the transaction left it (null when it deleted it), or as {@code committed}
     * holds it when the transaction did not change it: one hash lookup either way.
     */
    byte[] read(Bytes key, EntryStore committed) {
        byte[] value = latest.get(key);
        if (value == null) {
            return committed.get(key);
        }
        return value == DELETED ? null : value;
    }

    /** Holds {@code value} under {@code key}, or a delete when it is null. */
    void put(Bytes key, byte[] value) {
        byte[] held = value == null ? DELETED : value;
        byte[] before = latest.put(key, held);
        bytes += before == null ? key.get().length + held.length : held.length - before.length;
    }

    boolean isEmpty() {
        return latest.isEmpty();
    }

    /** What the held counters take (keys and values), for the store's estimate of its uncommitted bytes. */
    long bytes() {
        return bytes;
    }

    /** Writes each held counter into {@code target} once, in key order (nearby memtable inserts), and forgets them. */
    void drainTo(EntryStore target) {
        try {
            Bytes[] keys = latest.keySet().toArray(new Bytes[0]);
            Arrays.sort(keys);
            for (Bytes key : keys) {
                byte[] value = latest.get(key);
                if (value == DELETED) {
                    target.delete(key);
                } else {
                    target.put(key, value);
                }
            }
        } finally {
            forget();
        }
    }

    /** Drops the held counters (the transaction they belong to is abandoned). */
    void forget() {
        latest.clear();
        bytes = 0;
    }
}
