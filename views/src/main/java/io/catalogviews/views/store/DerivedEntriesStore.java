package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A RocksDB store whose rows carry their index and facet entries with them, without logging those entries.
 *
 * <p>It sits under the change-logging layer, so only what the processor writes — rows — reaches the changelog.
 * Every row written through {@link #put} or {@link #delete} first rewrites the derived entries (old ones out,
 * new ones in) in the same store, hence in the same transaction-buffer commit as the row. Restores and standby
 * updates replay the changelog through this store's restore callback, which derives the same entries for each
 * replayed row inside the same restore batch. The changelog carries one record per row change instead of one per
 * index entry: the write amplification that limited materialisation (about 60–90 changelog records per event
 * with all index entries logged) is gone, at the price of deriving entries again on restore.
 */
final class DerivedEntriesStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {

    private static final byte[] DELETED = new byte[0];

    private final RowDerivation derivation;
    /** Where derived entries go: the store, with index entries straight into its transaction's batch when it can. */
    private EntryStore direct;
    /**
     * The last row read by the writing thread, so that a put right after the processor's own get (the usual
     * sequence: read, check the version, write) does not read the row a second time. Interactive queries read
     * through the same store from other threads: they neither record nor use the memo (only the thread that last
     * wrote does), so they pay nothing for it and cannot see it.
     */
    private LastRead lastRead;
    private Thread writer;
    /** Where commits are reported (null: nobody listens), and the row keys written since the last commit. */
    private CommitFeed feed;
    private int partition;
    private Set<Bytes> written = new HashSet<>();

    private record LastRead(Thread reader, Bytes key, byte[] value) {
    }

    DerivedEntriesStore(KeyValueStore<Bytes, byte[]> rocksDb, RowDerivation derivation) {
        super(rocksDb);
        this.derivation = derivation;
        this.direct = EntryStore.of(rocksDb);
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        feed = CommitFeed.from(context.appConfigs());
        partition = context.taskId().partition();
        wrapped().init(interceptingRegistration(context), root);
        EntryStore store = EntryStore.of(wrapped());
        direct = UnindexedBatchWrites.of(wrapped()).map(batch -> indexEntriesInto(batch, store)).orElse(store);
    }

    /**
     * Index entries into the open transaction's batch, past Kafka Streams' read index of that transaction: nothing
     * reads an index entry on the writing thread (old keys come from the old row), and the batch commits and rolls
     * back with the row. Facet counters and rows are read back (read-modify-write), so they go through the store.
     */
    private static EntryStore indexEntriesInto(UnindexedBatchWrites batch, EntryStore store) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return store.get(key);
            }

            @Override
            public void put(Bytes key, byte[] value) {
                if (isIndexKey(key)) {
                    batch.put(key, value);
                } else {
                    store.put(key, value);
                }
            }

            @Override
            public void delete(Bytes key) {
                if (isIndexKey(key)) {
                    batch.put(key, null);
                } else {
                    store.delete(key);
                }
            }

            private static boolean isIndexKey(Bytes key) {
                byte[] k = key.get();
                return k.length > 0 && k[0] == ViewLayout.INDEX;
            }
        };
    }

    /**
     * Tells the feed which rows this commit is about to make readable, commits, then tells it again (also when the
     * commit fails). Kafka Streams commits the stores after the task's Kafka transaction (and RocksDB makes them
     * readable by committed reads here), so a listener that reads on the second notice sees nothing a crash could
     * take back; one that keeps answers drops them on the first, before any reader can see the change.
     */
    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        if (feed == null || written.isEmpty()) {
            super.commit(changelogOffsets);
            return;
        }
        Set<Bytes> committed = written;
        written = new HashSet<>();
        Runnable afterCommit = feed.committing(name(), partition, committed);
        try {
            super.commit(changelogOffsets);
        } finally {
            afterCommit.run();
        }
    }

    @Override
    public void close() {
        written = new HashSet<>(); // not committed: a reader would not see them
        if (feed != null) {
            feed.closing(name(), partition);
        }
        try {
            super.close();
        } finally {
            if (feed != null) {
                feed.closed(name(), partition);
            }
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        requireRowKey(key);
        if (value == null) {
            delete(key);
            return;
        }
        writer = Thread.currentThread();
        Staged derived = derive(key, before(key), value);
        lastRead = null;
        derived.writeTo(direct);
        wrapped().put(key, value);
        noteWritten(key);
    }

    private void noteWritten(Bytes key) {
        if (feed != null) {
            written.add(key);
        }
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] current = get(key);
        if (current == null) {
            put(key, value);
        }
        return current;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> e : entries) {
            put(e.key, e.value);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        requireRowKey(key);
        writer = Thread.currentThread();
        byte[] current = before(key);
        lastRead = null;
        if (current != null) {
            Staged derived = derive(key, current, null);
            derived.writeTo(direct);
            wrapped().put(key, null); // the row is known already: no read-before-delete
            noteWritten(key);
        }
        return current;
    }

    @Override
    public byte[] get(Bytes key) {
        byte[] value = wrapped().get(key);
        if (Thread.currentThread() == writer) {
            lastRead = new LastRead(writer, key, value);
        }
        return value;
    }

    /**
     * The view interactive queries read: the inner store's, so that READ_COMMITTED reaches RocksDB's committed
     * state instead of this store's reads, which see the open transaction's writes (the interface's default
     * returns {@code this}, and every layer above passes the level down to here).
     */
    @Override
    public ReadOnlyKeyValueStore<Bytes, byte[]> readOnly(IsolationLevel isolationLevel) {
        return wrapped().readOnly(isolationLevel);
    }

    /**
     * The entries a row change derives, computed before anything is written: a derivation that fails (a row it
     * cannot decode) leaves the store as it was, so a record's writes are all applied or none are.
     */
    private Staged derive(Bytes key, byte[] before, byte[] after) {
        Staged staged = new Staged(direct);
        derivation.apply(key, before, after, staged);
        return staged;
    }

    /** Derived writes held back until the whole derivation has succeeded; reads see them. */
    private static final class Staged implements EntryStore {
        private final EntryStore base;
        private final Map<Bytes, byte[]> writes = new LinkedHashMap<>();

        Staged(EntryStore base) {
            this.base = base;
        }

        @Override
        public byte[] get(Bytes key) {
            if (writes.containsKey(key)) {
                return writes.get(key);
            }
            return base.get(key);
        }

        @Override
        public void put(Bytes key, byte[] value) {
            writes.put(key, value);
        }

        @Override
        public void delete(Bytes key) {
            writes.put(key, null);
        }

        void writeTo(EntryStore target) {
            writes.forEach((key, value) -> {
                if (value == null) {
                    target.delete(key);
                } else {
                    target.put(key, value);
                }
            });
        }
    }

    /** The row as stored now, from the memo when this thread has just read it. */
    private byte[] before(Bytes key) {
        LastRead last = lastRead;
        if (last != null && last.reader() == Thread.currentThread() && last.key().equals(key)) {
            return last.value();
        }
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return wrapped().reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return wrapped().all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return wrapped().reverseAll();
    }

    @Override
    public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P> KeyValueIterator<Bytes, byte[]>
            prefixScan(P prefix, PS prefixKeySerializer) {
        return wrapped().prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }

    private void requireRowKey(Bytes key) {
        if (key == null || !ViewLayout.isRowKey(key.get())) {
            throw new IllegalArgumentException("store " + name() + " takes rows only; key " + key
                    + " is in a derived namespace");
        }
    }

    /**
     * The store's context, but with its restore callback wrapped: RocksDB's store registers itself for restores
     * and standby updates from inside its own {@code init}, and that registration is the one place where the
     * replayed rows can be seen. A proxy keeps every interface of the real context (the store's initialisation
     * needs the internal ones).
     */
    private StateStoreContext interceptingRegistration(StateStoreContext context) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> c = context.getClass(); c != null; c = c.getSuperclass()) {
            collectInterfaces(c, interfaces);
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("register") && args != null && args.length >= 2
                    && args[1] instanceof StateRestoreCallback callback) {
                args = args.clone();
                args[1] = new DerivingRestore(callback);
            }
            try {
                return method.invoke(context, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (StateStoreContext) Proxy.newProxyInstance(StateStoreContext.class.getClassLoader(),
                interfaces.toArray(Class<?>[]::new), handler);
    }

    private static void collectInterfaces(Class<?> c, Set<Class<?>> out) {
        for (Class<?> i : c.getInterfaces()) {
            if (out.add(i)) {
                collectInterfaces(i, out);
            }
        }
    }

    /**
     * Turns each replayed row into the derived writes plus the row, in order, and hands the whole batch to
     * RocksDB's own restore (so positions, offsets and transactions stay RocksDB's business). Reads of rows and
     * counters that the same batch already changed come from the batch.
     */
    private final class DerivingRestore implements RecordBatchingStateRestoreCallback {
        private final RecordBatchingStateRestoreCallback inner;

        DerivingRestore(StateRestoreCallback inner) {
            if (!(inner instanceof RecordBatchingStateRestoreCallback batching)) {
                throw new IllegalStateException("store " + name() + " expected RocksDB's record-batching restore "
                        + "callback, got " + inner.getClass().getName());
            }
            this.inner = batching;
        }

        @Override
        public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
            Map<Bytes, byte[]> pending = new HashMap<>();
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(records.size() * 8);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                Bytes key = Bytes.wrap(record.key());
                if (ViewLayout.isRowKey(record.key())) {
                    EntryStore batch = new BatchEntries(pending, out, record);
                    byte[] before = batch.get(key);
                    if (before != null || record.value() != null) {
                        derivation.apply(key, before, record.value(), batch);
                    }
                }
                pending.put(key, record.value() == null ? DELETED : record.value());
                out.add(record);
            }
            inner.restoreBatch(out);
            if (feed != null) {
                feed.restored(name(), partition);
            }
        }
    }

    /** Reads through the pending writes of a restore batch; writes become records of that batch. */
    private final class BatchEntries implements EntryStore {
        private final Map<Bytes, byte[]> pending;
        private final List<ConsumerRecord<byte[], byte[]>> out;
        private final ConsumerRecord<byte[], byte[]> source;

        BatchEntries(Map<Bytes, byte[]> pending, List<ConsumerRecord<byte[], byte[]>> out,
                     ConsumerRecord<byte[], byte[]> source) {
            this.pending = pending;
            this.out = out;
            this.source = source;
        }

        @Override
        public byte[] get(Bytes key) {
            byte[] p = pending.get(key);
            if (p != null) {
                return p == DELETED ? null : p;
            }
            return wrapped().get(key);
        }

        @Override
        public void put(Bytes key, byte[] value) {
            pending.put(key, value);
            out.add(derived(key, value));
        }

        @Override
        public void delete(Bytes key) {
            pending.put(key, DELETED);
            out.add(derived(key, null));
        }

        /** A derived write at the source record's offset, so that positions and offsets stay those of the row. */
        private ConsumerRecord<byte[], byte[]> derived(Bytes key, byte[] value) {
            return new ConsumerRecord<>(source.topic(), source.partition(), source.offset(), source.timestamp(),
                    source.timestampType(), key.get().length, value == null ? 0 : value.length, key.get(), value,
                    source.headers(), source.leaderEpoch());
        }
    }
}
