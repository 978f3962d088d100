package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import org.apache.kafka.common.utils.Bytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The index entries one transaction of a view store writes, held until its commit and then written in key order,
 * the last write of each key only. A rebuild holds each batch of its derived entries the same way.
 *
 * <p>Why: a commit writes its transaction's batch into RocksDB's memtable, a skip list, and an insert far from the
 * previous one searches the list from its top level. Written in the order changes derived them — a product's
 * entries scattered over index kinds and scopes, product after product — that search was 30 % of the stream
 * threads' CPU in a load (async-profiler, docs/benchmarks.md step 35); in key order each insert starts where the
 * previous one ended, as a rebuild's derived entries already do (step 22). The sorted keys are also what the commit
 * feed needs, so they are sorted once.
 *
 * <p>How: a commit holds tens of thousands of writes, and sorting them as objects spread over the heap (each key
 * beside its value's JSON) was mostly waiting for memory: the sort and the drain were a fifth of the stream threads'
 * CPU (docs/benchmarks.md, step 38). The keys are copied into one dense array as they come, with each key's first
 * {@value #HEAD_BYTES} bytes as {@value #HEADS} numbers beside it, and a merge sort orders write numbers by those
 * numbers, reading key bytes only on a tie. {@value #HEAD_BYTES} bytes, not eight: an index key's scope (namespace,
 * kind, category, brand) takes 10 to 30 bytes, so with eight most comparisons tied and went to the key bytes, a
 * third of the commit's sort and drain (docs/benchmarks.md, step 44).
 *
 * <p>Safe because nothing reads an index entry on the writing thread before the commit (old keys come from the old
 * row), entries of different keys commute, and a key's last write wins as it would have in the batch. Not
 * thread-safe: the writing thread's.
 */
final class IndexWritesInKeyOrder {

    /** Below this many writes a range is ordered by insertion, not split further. */
    private static final int INSERTION_SORT_WRITES = 16;
    private static final int INITIAL_WRITES = 1024;
    /** Numbers per key compared before its bytes: its first {@value #HEAD_BYTES} bytes. */
    private static final int HEADS = 4;
    private static final int HEAD_BYTES = HEADS * Long.BYTES;

    /** Every held key's bytes, one after the other, in arrival order. */
    private byte[] keyBytes = new byte[INITIAL_WRITES * 32];
    private int keyBytesUsed;
    /**
     * Per write, in arrival order: where its key starts in {@link #keyBytes}, its length, its heads (write {@code w}'s
     * at {@code HEADS * w}, side by side so that a comparison reads one cache line), its value.
     */
    private int[] keyStart = new int[INITIAL_WRITES];
    private int[] keyLength = new int[INITIAL_WRITES];
    private long[] heads = new long[HEADS * INITIAL_WRITES];
    private byte[][] values = new byte[INITIAL_WRITES][];
    private int count;
    private long bytes;

    /** Holds a write of {@code key}: {@code value}, or a delete when it is null. */
    void add(Bytes key, byte[] value) {
        byte[] k = key.get();
        if (count == keyStart.length) {
            int more = 2 * count;
            keyStart = Arrays.copyOf(keyStart, more);
            keyLength = Arrays.copyOf(keyLength, more);
            heads = Arrays.copyOf(heads, HEADS * more);
            values = Arrays.copyOf(values, more);
        }
        if (keyBytesUsed + k.length > keyBytes.length) {
            keyBytes = Arrays.copyOf(keyBytes, Math.max(2 * keyBytes.length, keyBytesUsed + k.length));
        }
        System.arraycopy(k, 0, keyBytes, keyBytesUsed, k.length);
        keyStart[count] = keyBytesUsed;
        keyLength[count] = k.length;
        for (int h = 0; h < HEADS; h++) {
            heads[HEADS * count + h] = head(k, h * Long.BYTES);
        }
        values[count] = value;
        keyBytesUsed += k.length;
        count++;
        bytes += k.length + (value == null ? 0 : value.length);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** How many writes are held (a key written twice counts twice). */
    int size() {
        return count;
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
        try {
            int[] order = sortedWrites();
            List<Bytes> keys = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int w = order[i];
                // Stable order: of a key written twice, the later write comes later and is the one kept.
                if (i + 1 < count && compare(w, order[i + 1]) == 0) {
                    continue;
                }
                Bytes key = Bytes.wrap(Arrays.copyOfRange(keyBytes, keyStart[w], keyStart[w] + keyLength[w]));
                if (values[w] == null) {
                    target.delete(key);
                } else {
                    target.put(key, values[w]);
                }
                keys.add(key);
            }
            return keys;
        } finally {
            forget();
        }
    }

    /** Drops the held writes (the transaction they belong to is abandoned). */
    void forget() {
        Arrays.fill(values, 0, count, null); // the values' JSON is not kept alive until the next commit
        count = 0;
        keyBytesUsed = 0;
        bytes = 0;
    }

    /** The write numbers in key order, writes of one key in arrival order (a stable merge sort). */
    private int[] sortedWrites() {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        mergeSort(order, new int[count], 0, count);
        return order;
    }

    private void mergeSort(int[] a, int[] scratch, int from, int to) {
        if (to - from <= INSERTION_SORT_WRITES) {
            for (int i = from + 1; i < to; i++) {
                int w = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], w) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = w;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, scratch, from, mid);
        mergeSort(a, scratch, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return; // already in order, as runs of one product's keys often are
        }
        System.arraycopy(a, from, scratch, from, mid - from);
        int left = from;
        int right = mid;
        int out = from;
        while (left < mid && right < to) {
            // <= keeps the left (earlier) write first among equal keys
            a[out++] = compare(scratch[left], a[right]) <= 0 ? scratch[left++] : a[right++];
        }
        while (left < mid) {
            a[out++] = scratch[left++];
        }
    }

    /** Unsigned order of the keys of writes {@code a} and {@code b}: their heads, and their bytes on a tie. */
    private int compare(int a, int b) {
        int ha = HEADS * a;
        int hb = HEADS * b;
        for (int h = 0; h < HEADS; h++) {
            int byHead = Long.compareUnsigned(heads[ha + h], heads[hb + h]);
            if (byHead != 0) {
                return byHead;
            }
        }
        return Arrays.compareUnsigned(keyBytes, keyStart[a], keyStart[a] + keyLength[a],
                keyBytes, keyStart[b], keyStart[b] + keyLength[b]);
    }

    /**
     * Eight bytes of a key from {@code from} as an unsigned number, zeros past its end: heads order keys as their bytes
     * do, except that keys with equal heads may still differ (in later bytes, or in length).
     */
    private static long head(byte[] key, int from) {
        long head = 0;
        for (int i = from; i < from + Long.BYTES; i++) {
            head = (head << 8) | (i < key.length ? key[i] & 0xFF : 0);
        }
        return head;
    }
}
