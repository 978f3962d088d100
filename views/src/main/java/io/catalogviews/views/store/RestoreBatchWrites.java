package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.BatchWritingStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.util.Arrays;
import java.util.Optional;

/**
 * Writes a rebuild's derived entries into the store's RocksDB in a write batch of their own, the way Kafka Streams'
 * restore writes a batch of changelog records ({@code RocksDBStore.restoreBatch}: one {@code WriteBatch} per batch,
 * written straight to the database, not through a transaction), without dressing each entry as a changelog record.
 *
 * <p>Why: a rebuild derives about 30 entries per row, and adding them to a {@code WriteBatch} one JNI call at a time
 * (each copying its arrays into the batch's native buffer, which grows by reallocation) was a fifth of the restoring
 * threads' samples (docs/benchmarks.md, step 39). The batch is encoded here in RocksDB's write-batch format (a
 * sequence number and a count, then per write its type, column family, and length-prefixed key and value) and handed
 * to RocksDB in one call.
 *
 * <p>Safe for the same reason as before: a rebuild's writes were already outside any transaction, and the rebuild
 * marker (deleted with the last batch) makes an interrupted derivation start again from the rows.
 */
final class RestoreBatchWrites {

    // RocksDB's ValueType tags (db/dbformat.h), as WriteBatch::Put/Delete write them.
    private static final byte TYPE_DELETION = 0x0;
    private static final byte TYPE_VALUE = 0x1;
    private static final byte TYPE_COLUMN_FAMILY_DELETION = 0x4;
    private static final byte TYPE_COLUMN_FAMILY_VALUE = 0x5;
    /** A fixed64 sequence number (set by the write) and a fixed32 count. */
    private static final int HEADER_BYTES = 12;

    private final KeyValueStore<Bytes, byte[]> store;
    private final BatchWritingStore batches;
    private final int columnFamilyId;

    private RestoreBatchWrites(KeyValueStore<Bytes, byte[]> store, BatchWritingStore batches, int columnFamilyId) {
        this.store = store;
        this.batches = batches;
        this.columnFamilyId = columnFamilyId;
    }

    /**
     * The batch writes of {@code store} when it is a RocksDB store of the supported Kafka Streams version (whose
     * column family is known); empty otherwise.
     */
    static Optional<RestoreBatchWrites> of(KeyValueStore<Bytes, byte[]> store) {
        if (!(store instanceof BatchWritingStore batches)) {
            return Optional.empty();
        }
        return UnindexedBatchWrites.of(store)
                .map(writes -> new RestoreBatchWrites(store, batches, writes.columnFamily().getID()));
    }

    /** Writes every held write (the last of each key, in key order) in one batch, and forgets them. */
    void write(IndexWritesInKeyOrder held) {
        Encoded encoded = new Encoded(held.bytes());
        held.drainTo(encoded);
        try (WriteBatch batch = new WriteBatch(encoded.bytes())) {
            batches.write(batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("store " + store.name() + ": writing a rebuild's " + encoded.count
                    + " derived entries failed", e);
        }
    }

    /** A write batch's bytes in RocksDB's format, for this store's column family. */
    private final class Encoded implements EntryStore {
        private byte[] bytes;
        private int length = HEADER_BYTES;
        private int count;

        Encoded(long heldBytes) {
            bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, HEADER_BYTES + heldBytes + heldBytes / 4 + 64)];
        }

        @Override
        public byte[] get(Bytes key) {
            throw new UnsupportedOperationException("a write batch is not read");
        }

        @Override
        public void put(Bytes key, byte[] value) {
            tag(TYPE_VALUE, TYPE_COLUMN_FAMILY_VALUE);
            lengthPrefixed(key.get());
            lengthPrefixed(value);
            count++;
        }

        @Override
        public void delete(Bytes key) {
            tag(TYPE_DELETION, TYPE_COLUMN_FAMILY_DELETION);
            lengthPrefixed(key.get());
            count++;
        }

        byte[] bytes() {
            // The sequence number (bytes 0-7) stays 0: the write assigns it. The count is a little-endian fixed32.
            bytes[8] = (byte) count;
            bytes[9] = (byte) (count >>> 8);
            bytes[10] = (byte) (count >>> 16);
            bytes[11] = (byte) (count >>> 24);
            return Arrays.copyOf(bytes, length);
        }

        private void tag(byte defaultFamily, byte otherFamily) {
            if (columnFamilyId == 0) {
                room(1);
                bytes[length++] = defaultFamily;
            } else {
                room(1 + 5);
                bytes[length++] = otherFamily;
                varint(columnFamilyId);
            }
        }

        private void lengthPrefixed(byte[] data) {
            room(5 + data.length);
            varint(data.length);
            System.arraycopy(data, 0, bytes, length, data.length);
            length += data.length;
        }

        private void varint(int value) {
            int v = value;
            while ((v & ~0x7F) != 0) {
                bytes[length++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[length++] = (byte) v;
        }

        private void room(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + more, 2 * bytes.length));
            }
        }
    }
}
