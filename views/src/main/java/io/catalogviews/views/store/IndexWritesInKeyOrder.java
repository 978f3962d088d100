package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import org.apache.kafka.common.utils.Bytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The index entries one transaction of a view store writes, held until its commit and then written in key order,
 * the last write of each key only.
 *
 * <p>Why: a commit writes its transaction's batch into RocksDB's memtable, a skip list, and an insert far from the
 * previous one searches the list from its top level. Written in the order changes derived them — a product's
 * entries scattered over index kinds and scopes, product after product — that search was 30 % of the stream
 * threads' CPU in a load (async-profiler, docs/benchmarks.md step 35); in key order each insert starts where the
 * previous one ended, as a rebuild's derived entries already do (step 22). The sorted keys are also what the commit
 * feed needs, so they are sorted once.
 *
 * <p>Safe because nothing reads an index entry on the writing thread before the commit (old keys come from the old
 * row), entries of different keys commute, and a key's last write wins as it would have in the batch. Not
 * thread-safe: the writing thread's.
 */
final class IndexWritesInKeyOrder {

    private List<Write> writes = new ArrayList<>();
    private long bytes;

    private record Write(byte[] key, byte[] value) {
    }

    /** Holds a write of {@code key}: {@code value}, or a delete when it is null. */
    void add(Bytes key, byte[] value) {
        writes.add(new Write(key.get(), value));
        bytes += key.get().length + (value == null ? 0 : value.length);
    }

    boolean isEmpty() {
        return writes.isEmpty();
    }

    /** What the held writes take (keys and values), for the store's estimate of its uncommitted bytes. */
    long bytes() {
        return bytes;
    }

    /**
     * Writes the held entries into {@code target} in key order, the last write of each key, and forgets them.
     *
     * @return the keys written, each once, in ascending unsigned order
     */
    List<Bytes> drainTo(EntryStore target) {
        List<Write> held = writes;
        forget();
        // Stable: of a key written twice, the later write stays the later one.
        held.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
        List<Bytes> keys = new ArrayList<>(held.size());
        for (int i = 0; i < held.size(); i++) {
            Write w = held.get(i);
            if (i + 1 < held.size() && Arrays.equals(w.key(), held.get(i + 1).key())) {
                continue;
            }
            Bytes key = Bytes.wrap(w.key());
            if (w.value() == null) {
                target.delete(key);
            } else {
                target.put(key, w.value());
            }
            keys.add(key);
        }
        return keys;
    }

    /** Drops the held writes (the transaction they belong to is abandoned). */
    void forget() {
        writes = new ArrayList<>();
        bytes = 0;
    }
}
