package io.catalogviews.views.store;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Writes into the RocksDB write batch of a transactional Kafka Streams store's open transaction, past the sorted map
 * that Kafka Streams keeps beside that batch so that the writing thread can read its own uncommitted writes.
 *
 * <p>Why: derived index entries are written at about 15 per applied change and scope and never read by the thread
 * that writes them (index maintenance computes old keys from the old row). Staging each one into that map as well
 * as into the batch cost 18 % of the stream thread's CPU while materializing (async-profiler, docs/benchmarks.md,
 * 2026-12-02). The batch is the one that the store's commit writes to RocksDB atomically and its rollback
 * discards, so an entry written here commits and rolls back with the row that derived it, exactly as before.
 *
 * <p>What it gives up: the writing thread does not see these writes in its own reads before the commit (interactive
 * queries read committed state and never saw them anyway). Use it only for keys that thread never reads.
 *
 * <p>Kafka Streams has no public API for this: the batch is reached through the fields of its 4.4 transactional
 * RocksDB store. When they are not there (another Kafka version, a non-transactional or in-memory store),
 * {@link #of} is empty and the caller writes through the store as usual; {@link #supported} tells the tests.
 */
final class UnindexedBatchWrites {

    private static final String STORE_CLASS = RocksDbStoreFields.STORE_CLASS;
    private static final String ACCESSOR_CLASS = STORE_CLASS + "$TransactionalDBAccessor";
    private static final String BUFFER_CLASS = "org.apache.kafka.streams.state.internals.RocksDBTransactionBuffer";
    private static final Members MEMBERS = Members.find();

    private final KeyValueStore<Bytes, byte[]> store;
    private final Object buffer;
    private final ColumnFamilyHandle columnFamily;
    /**
     * Native copies of one write's key and value. Handing RocksDB's JNI a {@code byte[]} makes it copy the array into
     * a malloc'd buffer and free it again, twice per write (a fifth of the commit's CPU at ~30 index writes per
     * change, docs/benchmarks.md step 38); a direct buffer is read in place, and filling it is one intrinsic copy.
     */
    private ByteBuffer keyBuffer = ByteBuffer.allocateDirect(INITIAL_BUFFER_BYTES);
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(INITIAL_BUFFER_BYTES);

    private static final int INITIAL_BUFFER_BYTES = 4096;

    private UnindexedBatchWrites(KeyValueStore<Bytes, byte[]> store, Object buffer, ColumnFamilyHandle columnFamily) {
        this.store = store;
        this.buffer = buffer;
        this.columnFamily = columnFamily;
    }

    /** Whether this Kafka Streams version has the members this class reaches. */
    static boolean supported() {
        return MEMBERS != null;
    }

    /**
     * The batch writes of {@code store}, once it is initialised, when it is a transactional RocksDB store of the
     * supported Kafka Streams version; empty otherwise.
     */
    static Optional<UnindexedBatchWrites> of(KeyValueStore<Bytes, byte[]> store) {
        if (MEMBERS == null || !MEMBERS.store().isInstance(store)) {
            return Optional.empty();
        }
        Object accessor = MEMBERS.dbAccessor().get(store);
        if (!MEMBERS.accessor().isInstance(accessor)) {
            return Optional.empty(); // not transactional: every write goes straight to RocksDB anyway
        }
        Object buffer = MEMBERS.buffer().get(accessor);
        ColumnFamilyHandle columnFamily = (ColumnFamilyHandle) MEMBERS.columnFamily().get(buffer);
        return buffer == null || columnFamily == null ? Optional.empty()
                : Optional.of(new UnindexedBatchWrites(store, buffer, columnFamily));
    }

    /** The column family the store keeps its keys and values in. */
    ColumnFamilyHandle columnFamily() {
        return columnFamily;
    }

    /** Puts {@code value} under {@code key} in the open transaction; null deletes. */
    void put(Bytes key, byte[] value) {
        if (!store.isOpen()) {
            // The batch of a closed store is freed native memory: never touch it.
            throw new ProcessorStateException("store " + store.name() + " is closed; cannot write key " + key);
        }
        // Read each time: the store replaces its batch at every commit.
        WriteBatch batch = (WriteBatch) MEMBERS.writeBatch().get(buffer);
        try {
            keyBuffer = filled(keyBuffer, key.get());
            if (value == null) {
                batch.delete(columnFamily, keyBuffer);
            } else {
                valueBuffer = filled(valueBuffer, value);
                batch.put(columnFamily, keyBuffer, valueBuffer);
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("store " + store.name() + ": staging key " + key + " failed", e);
        }
    }

    /** {@code buffer}, or a larger one when {@code bytes} do not fit, holding exactly {@code bytes}. */
    private static ByteBuffer filled(ByteBuffer buffer, byte[] bytes) {
        ByteBuffer target = buffer.capacity() >= bytes.length ? buffer
                : ByteBuffer.allocateDirect(Math.max(bytes.length, 2 * buffer.capacity()));
        target.clear();
        target.put(bytes);
        target.flip();
        return target;
    }

    private record Members(Class<?> store, Class<?> accessor, VarHandle dbAccessor, VarHandle buffer,
                           VarHandle columnFamily, VarHandle writeBatch) {

        static Members find() {
            try {
                Class<?> store = Class.forName(STORE_CLASS);
                Class<?> accessor = Class.forName(ACCESSOR_CLASS);
                Class<?> buffer = Class.forName(BUFFER_CLASS);
                return new Members(store, accessor,
                        RocksDbStoreFields.field(store, "dbAccessor", Class.forName(STORE_CLASS + "$DBAccessor")),
                        RocksDbStoreFields.field(accessor, "buffer", buffer),
                        RocksDbStoreFields.field(buffer, "cfHandle", ColumnFamilyHandle.class),
                        RocksDbStoreFields.field(buffer, "writeBatch", WriteBatch.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }
}
