package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.ViewLayout;
import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

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
 *
 * <p>A rebuild (an active task restoring into an empty store, told by {@link RowsFirstRebuilds}) writes the
 * replayed rows first and derives every row's entries once when the restore ends, instead of once per replayed
 * version: see {@link Replay}.
 */
final class DerivedEntriesStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(DerivedEntriesStore.class);
    private static final byte[] DELETED = new byte[0];
    private static final Bytes REBUILD_MARKER = Bytes.wrap(new byte[] {ViewLayout.REBUILD_MARKER});
    /**
     * Derived records handed to RocksDB's restore at a time when a rebuild derives its rows' entries: each batch is
     * written in key order, and the larger it is, the closer each memtable insert starts to the previous one.
     */
    static final int DERIVED_RECORDS_PER_BATCH = 32_000;
    /**
     * How large a partition's memtables are while it is rebuilt rows first (8 MB otherwise, {@code
     * BoundedMemoryRocksDbConfig}). A rebuild writes a partition's whole state at once: with 8 MB memtables each
     * partition of a 1 000 000-product catalog flushed about forty runs, and universal compaction merged them while
     * the rebuild ran — a quarter of the machine's CPU. With 64 MB it flushes a few, below the merge trigger: the
     * rebuild took 0.72x the time and its compactions a ninth of the CPU (docs/benchmarks.md, step 41). The write
     * buffer manager still bounds all memtables together; the inserts of a rebuild come in key order, so the deeper
     * skip list costs them little (unlike live writes: 32 MB memtables slowed those, docs/benchmarks.md "Tried and
     * dropped: 32 MB memtables").
     */
    static final long REBUILD_WRITE_BUFFER_BYTES = 64L << 20;

    /** How replayed rows are applied; decided when an active restore starts, else at the first replayed batch. */
    private enum Replay {
        UNDECIDED,
        /** Each replayed row rewrites its entries in the same batch (standbys, and restores onto existing state). */
        DERIVING,
        /**
         * Replayed rows are written as they come, the marker with the first; when the restore ends (or moves) every
         * row's entries are derived and the marker deleted. Reads are refused meanwhile: the rows have no entries.
         */
        ROWS_FIRST
    }

    private final RowDerivation derivation;
    /**
     * Where derived entries go: index entries held in {@link #indexWrites} and facet counters in {@link #facetWrites}
     * until the commit writes them into {@link #indexTarget} in key order.
     */
    private EntryStore direct;
    private final IndexWritesInKeyOrder indexWrites = new IndexWritesInKeyOrder();
    private final FacetCountersInTransaction facetWrites = new FacetCountersInTransaction();
    /** The open transaction's batch past Kafka Streams' read index when it can be reached, else the store. */
    private EntryStore indexTarget;
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
    /** Where rows-first rebuilds are started and finished (null: every replay derives as it goes). */
    private RowsFirstRebuilds rebuilds;
    private volatile Replay replay = Replay.UNDECIDED;
    private DerivingRestore restore;
    /**
     * The idle compactions this partition is registered with (null: none), its RocksDB instance as they and a rebuild
     * reach it (null: not a RocksDB store of the supported version), and whether it was written since the commit.
     */
    private IdleCompactions compactions;
    private PartitionCompaction compaction;
    /** The memtable size a rows-first rebuild replaced, to set back when its entries are derived; 0 when none. */
    private long writeBufferBeforeRebuild;
    private boolean writtenSinceCommit;

    private record LastRead(Thread reader, Bytes key, byte[] value) {
    }

    DerivedEntriesStore(KeyValueStore<Bytes, byte[]> rocksDb, RowDerivation derivation) {
        super(rocksDb);
        this.derivation = derivation;
        this.indexTarget = EntryStore.of(rocksDb);
        this.direct = heldIndexEntries(indexTarget);
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        feed = CommitFeed.from(context.appConfigs());
        partition = context.taskId().partition();
        rebuilds = RowsFirstRebuilds.from(context.appConfigs());
        replay = Replay.UNDECIDED;
        wrapped().init(interceptingRegistration(context), root);
        EntryStore store = EntryStore.of(wrapped());
        indexWrites.forget();
        facetWrites.forget();
        indexTarget = UnindexedBatchWrites.of(wrapped()).map(DerivedEntriesStore::intoBatch).orElse(store);
        direct = heldIndexEntries(store);
        if (rebuilds != null) {
            rebuilds.register(name(), partition, this);
        }
        compactions = IdleCompactions.from(context.appConfigs());
        // Also without idle compaction: a rebuild sizes the partition's memtables through it.
        compaction = PartitionCompaction.of(wrapped(), partition, System.nanoTime(),
                BoundedMemoryRocksDbConfig.cachesRowsOf(name(), context.appConfigs())).orElse(null);
        if (compaction != null && compactions != null) {
            compactions.register(compaction);
        }
    }

    /** Tells idle compaction that this partition was written now (a commit that wrote, a replayed batch). */
    private void writtenNow() {
        if (compaction != null) {
            compaction.written(System.nanoTime());
        }
    }

    /**
     * An active task starts restoring this store (on the restoring thread, before the first batch): an empty store,
     * or one whose rebuild a crash left unfinished, is rebuilt rows first; any other catches up deriving as it goes.
     * @param offsets how many changelog offsets the restore spans (none on a first start: nothing to rebuild)
     */
    void activeRestoreStarting(long offsets) {
        if (replay != Replay.UNDECIDED || restore == null) {
            return;
        }
        boolean unfinished = wrapped().get(REBUILD_MARKER) != null;
        boolean olderLayout = !unfinished && inOlderLayout();
        if (unfinished || olderLayout || isEmpty()) {
            restore.rowsFirst(unfinished || olderLayout);
            replay = Replay.ROWS_FIRST;
            // Every store partition of a first start comes here with an empty changelog: a rebuild of nothing neither
            // changes the memtable size (each change of the options writes a RocksDB OPTIONS file) nor logs at INFO.
            boolean somethingToRebuild = unfinished || olderLayout || offsets > 0;
            if (compaction != null && somethingToRebuild) {
                writeBufferBeforeRebuild = compaction.writeBufferBytes(REBUILD_WRITE_BUFFER_BYTES);
            }
            LOG.atLevel(somethingToRebuild ? Level.INFO : Level.DEBUG).log("Store {} partition "
                    + "{}: rebuilding rows first{} from {} changelog offsets; index and facet entries are derived when "
                    + "the restore ends", name(), partition, unfinished ? " (resuming an unfinished rebuild)"
                    : olderLayout ? " (its entries are in an older layout)" : "", offsets);
        } else {
            replay = Replay.DERIVING;
        }
    }

    /**
     * The active restore ended: a rows-first rebuild derives its rows' entries now, before the task runs.
     * @return whether a rebuild was finished
     */
    boolean activeRestoreEnded() {
        if (replay != Replay.ROWS_FIRST) {
            return false;
        }
        try {
            restore.deriveAll();
        } finally {
            if (compaction != null && writeBufferBeforeRebuild > 0) {
                compaction.writeBufferBytes(writeBufferBeforeRebuild);
                writeBufferBeforeRebuild = 0;
            }
        }
        replay = Replay.DERIVING;
        return true;
    }

    /**
     * The active restore was suspended (the task moves, or stays here as a standby): the rows so far get their
     * entries now. If that fails (the store closing under it), the marker stays and the next restore of this
     * store's partition resumes the rebuild; until then the store refuses reads.
     */
    boolean activeRestoreSuspended() {
        if (replay != Replay.ROWS_FIRST || !isOpen()) {
            return false;
        }
        try {
            return activeRestoreEnded();
        } catch (RuntimeException e) {
            LOG.warn("Store {} partition {}: the entries of a suspended rebuild could not be derived now; the next "
                    + "restore of this partition derives them", name(), partition, e);
            return false;
        }
    }

    /**
     * Whether the store's entries were derived by a release that kept category listings in a store of their own:
     * it holds whole-catalog counters (0x03: it has live rows) but no category scope's (0x06), which every live row
     * has (a product is in 1 to 32 categories). Its entries are derived again, as after a crashed rebuild.
     */
    private boolean inOlderLayout() {
        return hasKeyIn(ViewLayout.FACETS) && !hasKeyIn(ViewLayout.CATEGORY_FACETS);
    }

    private boolean hasKeyIn(byte namespace) {
        try (KeyValueIterator<Bytes, byte[]> it = wrapped().range(Bytes.wrap(new byte[] {namespace}),
                Bytes.wrap(new byte[] {namespace, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))) {
            return it.hasNext();
        }
    }

    private boolean isEmpty() {
        try (KeyValueIterator<Bytes, byte[]> all = wrapped().all()) {
            return !all.hasNext();
        }
    }

    /**
     * Index entries held until the commit ({@link IndexWritesInKeyOrder}): nothing reads an index entry on the
     * writing thread (old keys come from the old row). Facet counters are read back (read-modify-write): held at their
     * latest value ({@link FacetCountersInTransaction}), read from there first, written once at the commit.
     */
    private EntryStore heldIndexEntries(EntryStore store) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return facetWrites.read(key, store);
            }

            @Override
            public void put(Bytes key, byte[] value) {
                hold(key, value);
            }

            @Override
            public void delete(Bytes key) {
                hold(key, null);
            }

            private void hold(Bytes key, byte[] value) {
                byte[] k = key.get();
                if (ViewLayout.isIndexKey(k)) {
                    indexWrites.add(key, value);
                } else if (ViewLayout.isDerivedKey(k)) {
                    facetWrites.put(key, value);
                } else if (value == null) {
                    store.delete(key);
                } else {
                    store.put(key, value);
                }
            }
        };
    }

    /**
     * The open transaction's batch, past Kafka Streams' read index of that transaction: the batch commits and rolls
     * back with the rows, and the read index would only cost (18 % of a load's stream-thread CPU when it was used).
     */
    private static EntryStore intoBatch(UnindexedBatchWrites batch) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                throw new UnsupportedOperationException("index entries are never read on the writing thread");
            }

            @Override
            public void put(Bytes key, byte[] value) {
                batch.put(key, value);
            }

            @Override
            public void delete(Bytes key) {
                batch.put(key, null);
            }
        };
    }

    /**
     * Writes the transaction's held facet counters and index entries into it in key order, tells the feed which rows
     * this commit is about to make readable, commits, then tells it again (also when the commit fails). Kafka Streams
     * commits the stores after the task's Kafka transaction (and RocksDB makes them readable by committed reads here),
     * so a listener that reads on the second notice sees nothing a crash could take back; one that keeps answers drops
     * them on the first, before any reader can see the change. A commit that wrote restarts the partition's idle time
     * (idle compaction).
     */
    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        boolean wrote = writtenSinceCommit;
        writtenSinceCommit = false;
        try {
            if (!facetWrites.isEmpty()) {
                facetWrites.drainTo(indexTarget);
            }
            List<Bytes> indexKeys = indexWrites.isEmpty() ? List.of() : indexWrites.drainTo(indexTarget);
            commitAndTellFeed(changelogOffsets, indexKeys);
        } finally {
            if (wrote) {
                writtenNow();
            }
        }
    }

    private void commitAndTellFeed(Map<TopicPartition, Long> changelogOffsets, List<Bytes> indexKeys) {
        if (feed == null || written.isEmpty()) {
            super.commit(changelogOffsets);
            return;
        }
        Set<Bytes> committed = written;
        written = new HashSet<>();
        Runnable afterCommit = feed.committing(name(), partition, committed,
                feed.wantsIndexKeys(name()) ? indexKeys : List.of());
        try {
            super.commit(changelogOffsets);
        } finally {
            afterCommit.run();
        }
    }

    @Override
    public void close() {
        if (compaction != null) {
            // First: it cancels a running compaction and waits for it, and RocksDB closes below.
            if (compactions != null) {
                compactions.unregister(compaction);
            }
            compaction.close();
            compaction = null;
        }
        written = new HashSet<>(); // not committed: a reader would not see them
        indexWrites.forget();
        facetWrites.forget();
        if (rebuilds != null) {
            rebuilds.unregister(name(), partition, this);
        }
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
        writtenSinceCommit = true;
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
        if (replay == Replay.ROWS_FIRST) {
            throw new InvalidStateStoreException("store " + name() + " partition " + partition + " is being rebuilt: "
                    + "its rows are restored, their index and facet entries are derived when the restore ends");
        }
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

    /**
     * The transaction's bytes with the index entries held for its commit: Kafka Streams commits a thread's tasks early
     * when their stores hold more than {@code statestore.uncommitted.max.bytes}.
     */
    @Override
    public long approximateNumUncommittedBytes() {
        return super.approximateNumUncommittedBytes() + indexWrites.bytes() + facetWrites.bytes();
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
                restore = new DerivingRestore(callback);
                args[1] = restore;
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
        /** Rows first: whether the marker is in the store, and the last replayed record (for derived writes). */
        private boolean marked;
        private ConsumerRecord<byte[], byte[]> lastReplayed;

        DerivingRestore(StateRestoreCallback inner) {
            if (!(inner instanceof RecordBatchingStateRestoreCallback batching)) {
                throw new IllegalStateException("store " + name() + " expected RocksDB's record-batching restore "
                        + "callback, got " + inner.getClass().getName());
            }
            this.inner = batching;
        }

        @Override
        public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
            if (replay == Replay.UNDECIDED) {
                // No active restore announced this replay (a standby's update, or no rebuild registry): a store that
                // a crashed rebuild left with rows but no entries, or an older release with entries in an older
                // layout, gets them before it derives batch by batch.
                if (wrapped().get(REBUILD_MARKER) != null || inOlderLayout()) {
                    rowsFirst(true);
                    deriveAll();
                }
                replay = Replay.DERIVING;
            }
            if (replay == Replay.ROWS_FIRST) {
                replayRows(records);
            } else {
                deriveEach(records);
            }
            if (feed != null) {
                feed.restored(name(), partition);
            }
            writtenNow();
        }

        void rowsFirst(boolean markerInStore) {
            marked = markerInStore;
            lastReplayed = null;
        }

        private void replayRows(Collection<ConsumerRecord<byte[], byte[]>> records) {
            if (records.isEmpty()) {
                return;
            }
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(records.size() + 1);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (!marked) {
                    new PendingEntries(new HashMap<>(), out, record).put(REBUILD_MARKER, new byte[] {1});
                    marked = true;
                }
                out.add(record);
                lastReplayed = record;
            }
            inner.restoreBatch(out);
        }

        /**
         * Derives the entries of every row in the store, a batch at a time, then deletes the marker. Entries an
         * earlier, interrupted attempt left are deleted first (they sort before every row, so they are met first),
         * so counters start from zero and no entry of an older version of a row survives.
         */
        void deriveAll() {
            long started = System.nanoTime();
            long rows = 0;
            ConsumerRecord<byte[], byte[]> source = lastReplayed != null ? lastReplayed
                    : new ConsumerRecord<>(name(), partition, 0L, null, null);
            Map<Bytes, byte[]> pending = new HashMap<>();
            IndexWritesInKeyOrder held = new IndexWritesInKeyOrder();
            EntryStore batch = new PendingEntries(pending, held::add);
            Optional<RestoreBatchWrites> batches = RestoreBatchWrites.of(wrapped());
            try (KeyValueIterator<Bytes, byte[]> all = wrapped().all()) {
                while (all.hasNext()) {
                    KeyValue<Bytes, byte[]> entry = all.next();
                    if (ViewLayout.isRowKey(entry.key.get())) {
                        derivation.apply(entry.key, null, entry.value, batch);
                        rows++;
                    } else if (ViewLayout.isDerivedKey(entry.key.get())) {
                        batch.delete(entry.key);
                    }
                    if (held.size() >= DERIVED_RECORDS_PER_BATCH) {
                        // Counters stay in pending across batches: later rows read them back from there.
                        write(held, batches, source);
                    }
                }
            }
            batch.delete(REBUILD_MARKER);
            write(held, batches, source);
            marked = false;
            if (feed != null) {
                feed.restored(name(), partition); // entries changed without a commit: caches of them are stale
            }
            writtenNow();
            LOG.atLevel(rows > 0 ? Level.INFO : Level.DEBUG).log("Store {} partition {}: derived the entries of {} "
                    + "rows in {} ms", name(), partition, rows, (System.nanoTime() - started) / 1_000_000);
        }

        /**
         * Writes the held writes, the last of each key, in key order: into a RocksDB batch of their own where the
         * store takes one, else as records at {@code source}'s offset through Kafka Streams' restore. A rebuild's
         * entries arrive in row order, scattered over the index kinds and scopes, and inserting them into RocksDB's
         * memtable (a skip list) was three quarters of the derivation's CPU (profile, docs/benchmarks.md, step 22); in
         * key order each insert starts where the previous one ended. A counter written once per row is written once
         * per batch.
         */
        private void write(IndexWritesInKeyOrder held, Optional<RestoreBatchWrites> batches,
                           ConsumerRecord<byte[], byte[]> source) {
            if (batches.isPresent()) {
                batches.get().write(held);
            } else {
                inner.restoreBatch(inKeyOrder(held, source));
            }
        }

        private static List<ConsumerRecord<byte[], byte[]>> inKeyOrder(IndexWritesInKeyOrder held,
                                                                       ConsumerRecord<byte[], byte[]> source) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(held.size());
            held.drainTo(new EntryStore() {
                @Override
                public byte[] get(Bytes key) {
                    throw new UnsupportedOperationException("held writes are not read back");
                }

                @Override
                public void put(Bytes key, byte[] value) {
                    records.add(derived(source, key, value));
                }

                @Override
                public void delete(Bytes key) {
                    records.add(derived(source, key, null));
                }
            });
            return records;
        }

        private void deriveEach(Collection<ConsumerRecord<byte[], byte[]>> records) {
            Map<Bytes, byte[]> pending = new HashMap<>();
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(records.size() * 8);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                Bytes key = Bytes.wrap(record.key());
                if (ViewLayout.isRowKey(record.key())) {
                    EntryStore batch = new PendingEntries(pending, out, record);
                    byte[] before = batch.get(key);
                    if (before != null || record.value() != null) {
                        derivation.apply(key, before, record.value(), batch);
                    }
                }
                pending.put(key, record.value() == null ? DELETED : record.value());
                out.add(record);
            }
            inner.restoreBatch(out);
        }
    }

    /**
     * Reads through the pending writes of a restore (a batch's, or a rebuild's); each write is also handed to
     * {@code sink}, a null value for a delete. Index entries are handed on but not remembered: a derivation reads
     * back rows and counters only (an entry's old key comes from the old row), and filing every entry in the map
     * cost a tenth of a rebuild's restoring threads (docs/benchmarks.md, steps 22 and 40).
     */
    private final class PendingEntries implements EntryStore {
        private final Map<Bytes, byte[]> pending;
        private final BiConsumer<Bytes, byte[]> sink;

        PendingEntries(Map<Bytes, byte[]> pending, BiConsumer<Bytes, byte[]> sink) {
            this.pending = pending;
            this.sink = sink;
        }

        /** Writes become records of a restore batch, at {@code source}'s offset. */
        PendingEntries(Map<Bytes, byte[]> pending, List<ConsumerRecord<byte[], byte[]>> out,
                       ConsumerRecord<byte[], byte[]> source) {
            this(pending, (key, value) -> out.add(derived(source, key, value)));
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
            remember(key, value);
            sink.accept(key, value);
        }

        @Override
        public void delete(Bytes key) {
            remember(key, DELETED);
            sink.accept(key, null);
        }

        private void remember(Bytes key, byte[] stored) {
            if (!ViewLayout.isIndexKey(key.get())) {
                pending.put(key, stored);
            }
        }
    }

    /** A derived write at the source record's offset, so that positions and offsets stay those of the row. */
    private static ConsumerRecord<byte[], byte[]> derived(ConsumerRecord<byte[], byte[]> source, Bytes key,
                                                          byte[] value) {
        return new ConsumerRecord<>(source.topic(), source.partition(), source.offset(), source.timestamp(),
                source.timestampType(), key.get().length, value == null ? 0 : value.length, key.get(), value,
                source.headers(), source.leaderEpoch());
    }
}
