package io.catalogviews.views.store;

import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileMetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One view store partition's RocksDB instance as idle compaction sees it: when it was last written, the shape of its
 * sorted runs, and the flush and full compaction that take it to one run ({@link IdleCompactions} decides when); also
 * the size of its memtables, which a rebuild raises ({@link #writeBufferBytes}).
 *
 * <p>Closing is the danger: Kafka Streams closes a store's RocksDB instance when its task moves or the instance
 * stops, and a native call on a closed instance crashes the JVM. Every call here holds the read lock and first
 * checks {@link #close closed}; {@link #close} cancels a running compaction (RocksDB checks the cancel flag as it
 * goes) and takes the write lock, so it returns only when no call into this instance is running, and the store
 * closes RocksDB after it.
 */
final class PartitionCompaction implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionCompaction.class);
    /**
     * The share of the largest run that the memtables and the other runs must hold for a compaction to pay: below
     * it, a compaction would rewrite the whole partition for a few changes (a trickle of writes after a quiet spell).
     */
    static final double WORTH_IT = 0.1;
    private static final Fields FIELDS = Fields.find();
    /** The smallest row key: rows sort after every namespace of derived entries ({@link ViewLayout#isRowKey}). */
    static final byte[] FIRST_ROW_KEY = {0x20};

    private final String store;
    private final int partition;
    private final RocksDB db;
    private final ColumnFamilyHandle columnFamily;
    private final CompactRangeOptions options;
    /** Whether its RocksDB instance has a row cache, which point reads of its rows fill ({@link #warmRows}). */
    private final boolean rowsCached;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean closed;
    private volatile boolean compacting;
    /** Written since idle compaction last looked at it, and when. */
    private volatile boolean written;
    private volatile long lastWriteNanos;

    /** The outcome of one look at an idle partition. */
    enum Outcome { COMPACTED, NOT_WORTH_IT, CANCELED, FAILED }

    /**
     * The sorted runs of a partition and what they hold.
     * @param sortedRuns     files of level 0 and non-empty levels below it (each is one sorted run)
     * @param largestRunBytes bytes on disk of the largest run
     * @param otherRunsBytes bytes on disk of the others
     * @param memtableBytes  bytes of its memtables (0 when they hold no entry)
     */
    record Shape(int sortedRuns, long largestRunBytes, long otherRunsBytes, long memtableBytes) {

        boolean worthCompacting() {
            int runs = sortedRuns + (memtableBytes > 0 ? 1 : 0);
            return runs >= 2 && otherRunsBytes + memtableBytes >= WORTH_IT * largestRunBytes;
        }
    }

    PartitionCompaction(String store, int partition, RocksDB db, ColumnFamilyHandle columnFamily, long nowNanos) {
        this(store, partition, db, columnFamily, nowNanos, false);
    }

    PartitionCompaction(String store, int partition, RocksDB db, ColumnFamilyHandle columnFamily, long nowNanos,
                        boolean rowsCached) {
        this.store = store;
        this.rowsCached = rowsCached;
        this.partition = partition;
        this.db = db;
        this.columnFamily = columnFamily;
        this.options = new CompactRangeOptions()
                // Universal compaction's own merges of new flushes may run beside it: writes never wait for it.
                .setExclusiveManualCompaction(false);
        // A store just opened may hold the runs of writes before a restart: look at it once it has idled.
        this.written = true;
        this.lastWriteNanos = nowNanos;
    }

    /**
     * The compaction of {@code rocksDbStore}, once it is initialised, when it is a RocksDB store of the supported
     * Kafka Streams version (its {@code db} and column family fields); empty otherwise (nothing is compacted).
     *
     * @param rowsCached whether the store's RocksDB instance has a row cache
     */
    static Optional<PartitionCompaction> of(KeyValueStore<Bytes, byte[]> rocksDbStore, int partition, long nowNanos,
                                            boolean rowsCached) {
        if (FIELDS == null || !FIELDS.store().isInstance(rocksDbStore)) {
            return Optional.empty();
        }
        RocksDB db = (RocksDB) FIELDS.db().get(rocksDbStore);
        Object accessor = FIELDS.cfAccessor().get(rocksDbStore);
        if (db == null || !FIELDS.singleColumnFamily().isInstance(accessor)) {
            return Optional.empty();
        }
        ColumnFamilyHandle columnFamily = (ColumnFamilyHandle) FIELDS.columnFamily().get(accessor);
        return columnFamily == null ? Optional.empty()
                : Optional.of(new PartitionCompaction(rocksDbStore.name(), partition, db, columnFamily, nowNanos,
                        rowsCached));
    }

    /** Whether this Kafka Streams version has the fields {@link #of} reaches. */
    static boolean supported() {
        return FIELDS != null;
    }

    String store() {
        return store;
    }

    int partition() {
        return partition;
    }

    boolean rowsCached() {
        return rowsCached;
    }

    /** Records a write (a commit that wrote, a restored batch) at {@code nowNanos}. */
    void written(long nowNanos) {
        lastWriteNanos = nowNanos;
        written = true;
    }

    /** When it was last written (or opened). */
    long lastWriteNanos() {
        return lastWriteNanos;
    }

    /** Whether it was written and has been left alone since for at least {@code idleNanos}. */
    boolean idleSinceWritten(long nowNanos, long idleNanos) {
        return written && !closed && nowNanos - lastWriteNanos >= idleNanos;
    }

    boolean compacting() {
        return compacting;
    }

    /** Whether it was written since its last compaction (or look) began. */
    boolean writtenSinceCompaction() {
        return written;
    }

    /** Its shape now; null once closed. */
    Shape shape() {
        lock.readLock().lock();
        try {
            return closed ? null : readShape();
        } catch (RocksDBException e) {
            LOG.debug("Store {} partition {}: cannot read its sorted runs", store, partition, e);
            return null;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Flushes the memtables and compacts every run into one, when that is worth it ({@link Shape#worthCompacting});
     * on the calling thread, which waits while RocksDB's background threads compact. A write meanwhile makes the
     * partition wait for a new idle spell before the next look.
     */
    Outcome compactIfWorthIt() {
        return compact(false);
    }

    /** Flushes and compacts to one run, worth it or not (tests). */
    Outcome compactNow() {
        return compact(true);
    }

    private Outcome compact(boolean evenIfNotWorthIt) {
        written = false;
        lock.readLock().lock();
        try {
            if (closed) {
                return Outcome.CANCELED;
            }
            Shape before = readShape();
            if (!evenIfNotWorthIt && !before.worthCompacting()) {
                return Outcome.NOT_WORTH_IT;
            }
            compacting = true;
            long started = System.nanoTime();
            options.setCanceled(false);
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                db.flush(flush, columnFamily);
            }
            if (closed) {
                return Outcome.CANCELED;
            }
            db.compactRange(columnFamily, null, null, options);
            if (closed) {
                return Outcome.CANCELED;
            }
            Shape after = readShape();
            LOG.info("Store {} partition {}: idle, compacted {} sorted runs ({} bytes) and {} memtable bytes into {} "
                            + "({} bytes) in {} ms", store, partition, before.sortedRuns(),
                    before.largestRunBytes() + before.otherRunsBytes(), before.memtableBytes(), after.sortedRuns(),
                    after.largestRunBytes() + after.otherRunsBytes(), (System.nanoTime() - started) / 1_000_000);
            return Outcome.COMPACTED;
        } catch (RocksDBException e) {
            if (closed) {
                return Outcome.CANCELED; // RocksDB answers a canceled manual compaction with an error status
            }
            LOG.warn("Store {} partition {}: idle compaction failed; it is tried again after the next writes", store,
                    partition, e);
            return Outcome.FAILED;
        } finally {
            compacting = false;
            lock.readLock().unlock();
        }
    }

    /**
     * Makes its memtables {@code bytes} large (RocksDB's {@code write_buffer_size}, changed on the open database).
     *
     * @return the size in effect before, to set it back; 0 when nothing was changed (closed, or RocksDB refused)
     */
    long writeBufferBytes(long bytes) {
        lock.readLock().lock();
        try {
            if (closed) {
                return 0;
            }
            long before = db.getOptions(columnFamily).writeBufferSize();
            db.setOptions(columnFamily, MutableColumnFamilyOptions.builder().setWriteBufferSize(bytes).build());
            return before;
        } catch (RocksDBException e) {
            LOG.warn("Store {} partition {}: cannot set its memtables' size to {} bytes", store, partition, bytes, e);
            return 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The capacity of the block cache its tables read through (shared with other stores and partitions); 0 once closed
     * or when RocksDB cannot tell.
     */
    long blockCacheCapacity() {
        lock.readLock().lock();
        try {
            return closed ? 0 : db.getLongProperty(columnFamily, "rocksdb.block-cache-capacity");
        } catch (RocksDBException e) {
            return 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Reads every entry once, in key order, so that the blocks of the run a compaction just wrote are in the block
     * cache before reads need them: the blocks of the runs it replaced are dead (they age out of the LRU cache), and
     * without this the first reads after a compaction went to the table files (a product read missed the cache 0.61
     * times per request in the first get-by-id window after a load's compactions, docs/benchmarks.md step 31). Stops
     * early when the partition is written or closed.
     *
     * @return the entries read
     */
    long warm() {
        return readThrough(null, true, "entries", "the block cache", it -> { });
    }

    /**
     * Reads every row (the keys from {@link #FIRST_ROW_KEY} on) by a point read, so that the row cache holds the rows
     * of the run a compaction just wrote: its entries name the table file they were read from, so a compaction leaves
     * those of the replaced files unused, and without this the first reads after a load's compactions read the rows
     * from blocks again (0.435 block misses per request in the first get-by-id window, docs/benchmarks.md step 34).
     * Neither the scan nor the point reads fill the block cache: the rows go to the row cache only, whatever the
     * store's size. Stops early when the partition is written or closed.
     *
     * @return the rows read
     */
    long warmRows() {
        if (!rowsCached) {
            return 0;
        }
        byte[] firstByte = new byte[1]; // the point read's copy of the value: the row cache keeps it whole
        try (ReadOptions point = new ReadOptions().setFillCache(false)) {
            return readThrough(FIRST_ROW_KEY, false, "rows", "the row cache",
                    it -> db.get(columnFamily, point, it.key(), firstByte));
        }
    }

    /** What a read-through does at each entry besides reading it. */
    @FunctionalInterface
    private interface AtEachEntry {
        void accept(RocksIterator at) throws RocksDBException;
    }

    /**
     * Reads the partition in key order from {@code from} (null: its first key) with read-ahead, filling the block cache
     * or not, and does {@code each} at every entry; stops early when the partition is written or closed.
     *
     * @return the entries read
     */
    private long readThrough(byte[] from, boolean fillBlockCache, String what, String into, AtEachEntry each) {
        lock.readLock().lock();
        try {
            if (closed) {
                return 0;
            }
            long entries = 0;
            long started = System.nanoTime();
            // Sequential reads: read ahead instead of one 4 KB read per block.
            try (ReadOptions read = new ReadOptions().setReadaheadSize(2L << 20).setFillCache(fillBlockCache);
                 RocksIterator it = db.newIterator(columnFamily, read)) {
                if (from == null) {
                    it.seekToFirst();
                } else {
                    it.seek(from);
                }
                for (; it.isValid(); it.next()) {
                    each.accept(it);
                    if (++entries % 4096 == 0 && (closed || written)) {
                        break;
                    }
                }
                it.status();
            } catch (RocksDBException e) {
                // Only a cache left colder than it could be: reads fill it as they go.
                LOG.debug("Store {} partition {}: reading its {} into {} stopped after {}", store, partition, what,
                        into, entries, e);
            }
            LOG.info("Store {} partition {}: read {} {} into {} after its compaction in {} ms", store, partition,
                    entries, what, into, (System.nanoTime() - started) / 1_000_000);
            return entries;
        } finally {
            lock.readLock().unlock();
        }
    }

    private Shape readShape() throws RocksDBException {
        ColumnFamilyMetaData meta = db.getColumnFamilyMetaData(columnFamily);
        int runs = 0;
        long largest = 0;
        long total = 0;
        for (LevelMetaData level : meta.levels()) {
            if (level.level() == 0) {
                for (SstFileMetaData file : level.files()) {
                    runs++;
                    largest = Math.max(largest, file.size());
                    total += file.size();
                }
            } else if (!level.files().isEmpty()) {
                runs++;
                largest = Math.max(largest, level.size());
                total += level.size();
            }
        }
        long entries = db.getLongProperty(columnFamily, "rocksdb.num-entries-active-mem-table")
                + db.getLongProperty(columnFamily, "rocksdb.num-entries-imm-mem-tables");
        long memtableBytes = entries == 0 ? 0 : db.getLongProperty(columnFamily, "rocksdb.cur-size-all-mem-tables");
        return new Shape(runs, largest, total - largest, memtableBytes);
    }

    /**
     * Cancels a running compaction and waits until no call into the RocksDB instance is running; after it, nothing
     * here touches it again. Call before the store closes RocksDB.
     */
    @Override
    public void close() {
        closed = true;
        options.setCanceled(true);
        lock.writeLock().lock();
        try {
            options.close();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private record Fields(Class<?> store, Class<?> singleColumnFamily, VarHandle db, VarHandle cfAccessor,
                          VarHandle columnFamily) {

        static Fields find() {
            try {
                Class<?> store = Class.forName(RocksDbStoreFields.STORE_CLASS);
                Class<?> accessor = Class.forName(RocksDbStoreFields.STORE_CLASS + "$ColumnFamilyAccessor");
                Class<?> single = Class.forName(RocksDbStoreFields.STORE_CLASS + "$SingleColumnFamilyAccessor");
                return new Fields(store, single, RocksDbStoreFields.field(store, "db", RocksDB.class),
                        RocksDbStoreFields.field(store, "cfAccessor", accessor),
                        RocksDbStoreFields.field(single, "columnFamily", ColumnFamilyHandle.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }
}
