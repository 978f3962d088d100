package io.catalogviews.views.store;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Many point reads of a Kafka Streams RocksDB store in one call to RocksDB ({@code MultiGet}), on exactly the state
 * its read-only view reads: the database itself, which holds only committed writes when the store is transactional
 * (its open transaction lives in a batch beside it) and every write when it is not.
 *
 * <p>Why: a batch of 100 ids spends most of its CPU in 100 separate {@code Get}s, each paying the JNI crossing and
 * RocksDB's per-call set-up (super-version, snapshot, a memtable and filter probe per sorted run); {@code MultiGet}
 * pays those once and probes the filters and blocks of all keys together.
 *
 * <p>Kafka Streams has no public API for it: the database and column family are reached through the fields of its
 * 4.4 RocksDB store. When they are not there (another Kafka version, an in-memory store), or when the view would read
 * the open transaction ({@code READ_UNCOMMITTED} on a transactional store), {@link #of} is empty and callers read
 * key by key through the view.
 */
final class CommittedMultiGet {

    private static final String STORE_CLASS = "org.apache.kafka.streams.state.internals.RocksDBStore";
    private static final Members MEMBERS = Members.find();

    private final KeyValueStore<Bytes, byte[]> store;
    private final RocksDB db;
    private final ColumnFamilyHandle columnFamily;

    private CommittedMultiGet(KeyValueStore<Bytes, byte[]> store, RocksDB db, ColumnFamilyHandle columnFamily) {
        this.store = store;
        this.db = db;
        this.columnFamily = columnFamily;
    }

    /** Whether this Kafka Streams version has the members this class reaches. */
    static boolean supported() {
        return MEMBERS != null;
    }

    /**
     * Multi-gets on the state that {@code store.readOnly(level)} reads, when {@code store} is an open RocksDB store of
     * the supported Kafka Streams version and that state is the database's; empty otherwise.
     */
    static Optional<CommittedMultiGet> of(KeyValueStore<Bytes, byte[]> store, IsolationLevel level) {
        if (MEMBERS == null || !MEMBERS.store().isInstance(store) || !store.isOpen()) {
            return Optional.empty();
        }
        Object accessor = MEMBERS.dbAccessor().get(store);
        if (level != IsolationLevel.READ_COMMITTED && MEMBERS.transactional().isInstance(accessor)) {
            return Optional.empty(); // this view also reads the open transaction, which the database does not hold
        }
        Object cfAccessor = MEMBERS.cfAccessor().get(store);
        if (!MEMBERS.singleColumnFamily().isInstance(cfAccessor)) {
            return Optional.empty();
        }
        RocksDB db = (RocksDB) MEMBERS.db().get(store);
        ColumnFamilyHandle columnFamily = (ColumnFamilyHandle) MEMBERS.columnFamily().get(cfAccessor);
        return db == null || columnFamily == null ? Optional.empty()
                : Optional.of(new CommittedMultiGet(store, db, columnFamily));
    }

    /** The values of {@code keys}, in their order, null for an absent key. */
    List<byte[]> getAll(List<Bytes> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        if (!store.isOpen()) {
            // A closed store's database is freed native memory: never touch it (the view's own reads check the same).
            throw new InvalidStateStoreException("store " + store.name() + " is closed; cannot read "
                    + keys.size() + " keys");
        }
        List<byte[]> raw = new ArrayList<>(keys.size());
        for (Bytes key : keys) {
            raw.add(key.get());
        }
        try {
            return db.multiGetAsList(Collections.nCopies(raw.size(), columnFamily), raw);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("store " + store.name() + ": reading " + keys.size()
                    + " keys (first " + keys.get(0) + ") failed", e);
        }
    }

    private record Members(Class<?> store, Class<?> transactional, Class<?> singleColumnFamily, VarHandle db,
                           VarHandle dbAccessor, VarHandle cfAccessor, VarHandle columnFamily) {

        static Members find() {
            try {
                Class<?> store = Class.forName(STORE_CLASS);
                Class<?> single = Class.forName(STORE_CLASS + "$SingleColumnFamilyAccessor");
                return new Members(store, Class.forName(STORE_CLASS + "$TransactionalDBAccessor"), single,
                        field(store, "db", RocksDB.class),
                        field(store, "dbAccessor", Class.forName(STORE_CLASS + "$DBAccessor")),
                        field(store, "cfAccessor", Class.forName(STORE_CLASS + "$ColumnFamilyAccessor")),
                        field(single, "columnFamily", ColumnFamilyHandle.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        private static VarHandle field(Class<?> owner, String name, Class<?> type) throws ReflectiveOperationException {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
        }
    }
}
