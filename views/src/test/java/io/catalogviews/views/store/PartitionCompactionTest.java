package io.catalogviews.views.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.catalogviews.views.index.ViewLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.CompactionStyle;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Idle compaction of one partition on a real RocksDB instance shaped as Kafka Streams shapes a store's (universal
 * compaction; automatic compactions off here so that the test decides how many sorted runs there are).
 */
class PartitionCompactionTest {

    private static final long SEED = 20261205L;

    @TempDir
    Path dir;
    private Options options;
    private RocksDB db;
    private ColumnFamilyHandle columnFamily;

    @BeforeEach
    void open() throws RocksDBException {
        RocksDB.loadLibrary();
        options = new Options().setCreateIfMissing(true).setCompactionStyle(CompactionStyle.UNIVERSAL)
                .setDisableAutoCompactions(true);
        db = RocksDB.open(options, dir.toString());
        columnFamily = db.getDefaultColumnFamily();
    }

    @AfterEach
    void close() {
        db.close();
        options.close();
    }

    @Test
    void shouldCompactToOneSortedRunWithTheSameValuesWhenNewerRunsHoldATenthOfTheLargest() throws Exception {
        List<byte[]> keys = writeRuns(4, 2_000, 100);
        List<byte[]> values = read(keys);
        db.put(key(1), "changed in the memtable".getBytes());
        values.set(1, "changed in the memtable".getBytes());
        PartitionCompaction partition = new PartitionCompaction("s", 0, db, columnFamily, 0);
        assertThat(partition.shape().sortedRuns()).as("sorted runs before").isEqualTo(4);

        PartitionCompaction.Outcome outcome = partition.compactIfWorthIt();

        assertThat(outcome).isEqualTo(PartitionCompaction.Outcome.COMPACTED);
        PartitionCompaction.Shape after = partition.shape();
        assertThat(after.sortedRuns()).as("sorted runs after").isEqualTo(1);
        assertThat(after.memtableBytes()).as("memtable bytes after").isZero();
        assertThat(read(keys)).as("values after").usingRecursiveComparison().isEqualTo(values);
        partition.close();
    }

    @Test
    void shouldLeaveAPartitionAloneWhenItsNewerRunsAreSmallAgainstTheLargest() throws Exception {
        writeRuns(1, 20_000, 100);
        writeRuns(1, 10, 100);
        PartitionCompaction partition = new PartitionCompaction("s", 0, db, columnFamily, 0);

        PartitionCompaction.Outcome outcome = partition.compactIfWorthIt();

        assertThat(outcome).isEqualTo(PartitionCompaction.Outcome.NOT_WORTH_IT);
        assertThat(partition.shape().sortedRuns()).as("sorted runs left").isEqualTo(2);
        partition.close();
    }

    @Test
    void shouldBeDueOnlyWhenWrittenAndThenLeftAloneForTheIdleTime() throws Exception {
        writeRuns(2, 100, 10);
        long idle = TimeUnit.SECONDS.toNanos(10);
        PartitionCompaction partition = new PartitionCompaction("s", 0, db, columnFamily, 1_000);

        assertThat(partition.idleSinceWritten(1_000 + idle - 1, idle)).as("just opened, before the idle time")
                .isFalse();
        assertThat(partition.idleSinceWritten(1_000 + idle, idle)).as("just opened, after the idle time").isTrue();
        partition.compactIfWorthIt();
        assertThat(partition.idleSinceWritten(1_000 + 5 * idle, idle)).as("looked at, not written since").isFalse();
        partition.written(2 * idle);
        assertThat(partition.idleSinceWritten(3 * idle - 1, idle)).as("written, before the idle time").isFalse();
        assertThat(partition.idleSinceWritten(3 * idle, idle)).as("written, after the idle time").isTrue();
        partition.close();
        assertThat(partition.idleSinceWritten(10 * idle, idle)).as("closed").isFalse();
        assertThat(partition.shape()).as("shape once closed").isNull();
        assertThat(partition.compactIfWorthIt()).as("a look once closed")
                .isEqualTo(PartitionCompaction.Outcome.CANCELED);
    }

    /**
     * A partition that finished its share of a load waits while another of the instance still applies changes: a
     * compaction beside them would take the stream threads' cores.
     */
    @Test
    void shouldCompactNothingWhileAnotherPartitionOfTheInstanceIsStillWritten() throws Exception {
        writeRuns(4, 2_000, 100);
        try (Options otherOptions = new Options().setCreateIfMissing(true)
                .setCompactionStyle(CompactionStyle.UNIVERSAL).setDisableAutoCompactions(true);
             RocksDB other = RocksDB.open(otherOptions, dir.resolve("other").toString())) {
            writeRuns(other, 3, 2_000, 100);
            long second = TimeUnit.SECONDS.toNanos(1);
            IdleCompactions compactions = IdleCompactions.unscheduled(Duration.ofSeconds(10));
            PartitionCompaction done = new PartitionCompaction("s", 0, db, columnFamily, 0);
            PartitionCompaction busy = new PartitionCompaction("s", 1, other, other.getDefaultColumnFamily(), 0);
            compactions.register(done);
            compactions.register(busy);
            busy.written(15 * second);

            compactions.compactIdle(20 * second);

            assertThat(compactions.compactions("s")).as("compactions while a partition was written 5 s ago").isZero();
            assertThat(done.shape().sortedRuns()).as("sorted runs of the idle partition meanwhile").isEqualTo(4);

            compactions.compactIdle(25 * second);

            assertThat(compactions.compactions("s")).as("compactions once every partition idled").isEqualTo(2);
            assertThat(done.shape().sortedRuns()).as("sorted runs of the first").isEqualTo(1);
            assertThat(busy.shape().sortedRuns()).as("sorted runs of the second").isEqualTo(1);
            compactions.unregister(busy);
            busy.close();
            done.close();
        }
    }

    /**
     * Kafka Streams closes a store's RocksDB instance when its task moves: the partition's close must stop a running
     * compaction and return only when no call into the instance runs, so that closing RocksDB after it is safe.
     */
    @Test
    void shouldCancelTheCompactionAndReturnWhenThePartitionClosesDuringIt() throws Exception {
        writeRuns(6, 60_000, 200); // tens of MB of incompressible values: a compaction of a few seconds
        PartitionCompaction partition = new PartitionCompaction("s", 0, db, columnFamily, 0);
        CompletableFuture<PartitionCompaction.Outcome> outcome =
                CompletableFuture.supplyAsync(partition::compactIfWorthIt);
        await().alias("the compaction runs").atMost(Duration.ofSeconds(30)).until(partition::compacting);

        assertTimeoutPreemptively(Duration.ofSeconds(30), partition::close, "the close waits only for a cancel");

        assertThat(partition.compacting()).as("compacting once closed").isFalse();
        assertThat(outcome.get(30, TimeUnit.SECONDS)).isEqualTo(PartitionCompaction.Outcome.CANCELED);
        assertThat(partition.shape()).as("shape once closed").isNull();
    }

    @Test
    void shouldServeTheFirstReadsAfterACompactionFromTheBlockCacheWhenTheStoreFitsThere() throws Exception {
        AfterCompaction after = readAfterIdleCompaction(16L << 20, true);

        assertThat(after.misses()).as("data blocks read from the table files after the compaction").isZero();
    }

    @Test
    void shouldReadTheFirstBlocksAfterACompactionFromTheTableFilesWhenWarmingIsOff() throws Exception {
        AfterCompaction after = readAfterIdleCompaction(16L << 20, false);

        // Every block of the new run (about 2 000 entries of 110 bytes in 4 KB blocks) misses once.
        assertThat(after.misses()).as("data blocks read from the table files after the compaction").isGreaterThan(40);
    }

    @Test
    void shouldNotReadACompactedPartitionIntoTheCacheWhenItsStoreDoesNotFitThere() throws Exception {
        // 220 KB of tables against a 128 KB cache: reading them through would only evict what reads use.
        AfterCompaction after = readAfterIdleCompaction(128L << 10, true);

        assertThat(after.cachedBytes()).as("block cache bytes once compacted").isLessThan(16L << 10);
    }

    /**
     * A load leaves runs that take more than the cache and shrink when compacted: whether the store fits is judged
     * once every partition of the round is compacted, so that the first ones are warmed too.
     */
    @Test
    void shouldWarmEveryPartitionOfTheRoundWhenTheStoreFitsTheCacheOnlyOnceAllAreCompacted() throws Exception {
        // Two partitions of 4 runs of 220 KB each: 1.7 MB before, 440 KB after, against a 1 MB cache.
        try (LRUCache cache = new LRUCache(1L << 20, 0);
             Statistics statistics = new Statistics();
             Options cached = cachedOptions(cache, statistics);
             RocksDB first = RocksDB.open(cached, dir.resolve("first").toString());
             RocksDB second = RocksDB.open(cached, dir.resolve("second").toString())) {
            List<byte[]> keys = writeRuns(first, 4, 2_000, 100);
            writeRuns(second, 4, 2_000, 100);
            IdleCompactions compactions = IdleCompactions.unscheduled(Duration.ofSeconds(10), true);
            PartitionCompaction one = new PartitionCompaction("s", 0, first, first.getDefaultColumnFamily(), 0);
            PartitionCompaction two = new PartitionCompaction("s", 1, second, second.getDefaultColumnFamily(), 0);
            compactions.register(one);
            compactions.register(two);

            compactions.compactIdle(TimeUnit.SECONDS.toNanos(20));

            assertThat(compactions.compactions("s")).as("partitions compacted").isEqualTo(2);
            long before = statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
            for (byte[] key : keys) {
                assertThat(first.get(key)).as("value in the first partition").hasSize(100);
                assertThat(second.get(key)).as("value in the second partition").hasSize(100);
            }
            assertThat(statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - before)
                    .as("data blocks read from the table files after the compactions").isZero();
            compactions.unregister(one);
            compactions.unregister(two);
            one.close();
            two.close();
        }
    }

    /**
     * A compaction leaves the row cache's entries of the replaced table files unused: a store with a row cache has its
     * rows read into it by point reads, whatever its size, so that the first reads of rows after a load find them there
     * — and the block cache is left to the reads.
     */
    @Test
    void shouldServeTheFirstRowReadsAfterACompactionFromTheRowCacheWhenTheStoreHasOne() throws Exception {
        RowReads after = readRowsAfterIdleCompaction(true);

        assertThat(after.rowCacheHits()).as("row reads answered by the row cache after the compaction")
                .isEqualTo(after.rows());
        assertThat(after.blockCacheBytes()).as("block cache bytes once compacted and warmed").isLessThan(16L << 10);
    }

    @Test
    void shouldReadTheFirstRowsAfterACompactionFromTheTablesWhenTheStoreIsNotKnownToHaveARowCache() throws Exception {
        RowReads after = readRowsAfterIdleCompaction(false);

        assertThat(after.rowCacheHits()).as("row reads answered by the row cache after the compaction").isZero();
    }

    /** How many rows were read after a compaction, how many the row cache answered, and the block cache's bytes. */
    private record RowReads(int rows, long rowCacheHits, long blockCacheBytes) {
    }

    /**
     * Four runs of the same 2 000 rows and 2 000 derived entries in a RocksDB instance with a row cache and a block
     * cache smaller than its tables, compacted by idle compaction, then every row read once.
     */
    private RowReads readRowsAfterIdleCompaction(boolean rowsCached) throws Exception {
        try (LRUCache blocks = new LRUCache(128L << 10, 0);
             LRUCache rows = new LRUCache(4L << 20, 0);
             Statistics statistics = new Statistics();
             Options cached = cachedOptions(blocks, statistics).setRowCache(rows);
             RocksDB store = RocksDB.open(cached, dir.resolve("rows").toString())) {
            List<byte[]> rowKeys = writeRowsAndEntries(store, 4, 2_000);
            IdleCompactions compactions = IdleCompactions.unscheduled(Duration.ofSeconds(10), true);
            PartitionCompaction partition = compactedWhenIdle(compactions, store, rowsCached);
            long blockCacheBytes = blocks.getUsage();
            long before = statistics.getTickerCount(TickerType.ROW_CACHE_HIT);
            for (byte[] key : rowKeys) {
                assertThat(store.get(key)).as("row after the compaction").hasSize(100);
            }
            long hits = statistics.getTickerCount(TickerType.ROW_CACHE_HIT) - before;
            compactions.unregister(partition);
            partition.close();
            return new RowReads(rowKeys.size(), hits, blockCacheBytes);
        }
    }

    /**
     * {@code runs} flushed runs, each of the same {@code perRun} rows (keys from
     * {@link PartitionCompaction#FIRST_ROW_KEY} on) and as many derived entries (namespace 0x02), random 100-byte
     * values.
     *
     * @return the row keys
     */
    private static List<byte[]> writeRowsAndEntries(RocksDB db, int runs, int perRun) throws RocksDBException {
        Random random = new Random(SEED + runs);
        List<byte[]> rowKeys = new ArrayList<>();
        try (WriteOptions write = new WriteOptions().setDisableWAL(true);
             FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            for (int run = 0; run < runs; run++) {
                try (WriteBatch batch = new WriteBatch()) {
                    for (int i = 0; i < perRun; i++) {
                        byte[] row = ("p-" + i).getBytes(StandardCharsets.US_ASCII);
                        byte[] entry = ByteBuffer.allocate(5).put(ViewLayout.INDEX).putInt(i).array();
                        for (byte[] key : List.of(row, entry)) {
                            byte[] value = new byte[100];
                            random.nextBytes(value);
                            batch.put(key, value);
                        }
                        if (run == 0) {
                            rowKeys.add(row);
                        }
                    }
                    db.write(write, batch);
                }
                db.flush(flush, db.getDefaultColumnFamily());
            }
        }
        return rowKeys;
    }

    /** What the block cache held once a partition was compacted, and the misses of reading every key after that. */
    private record AfterCompaction(long cachedBytes, long misses) {
    }

    /**
     * Four runs of the same 2 000 keys in a RocksDB instance with a block cache of {@code cacheBytes}, compacted by idle
     * compaction, then every key read once.
     */
    private AfterCompaction readAfterIdleCompaction(long cacheBytes, boolean warm) throws Exception {
        try (LRUCache cache = new LRUCache(cacheBytes, 0);
             Statistics statistics = new Statistics();
             Options cached = cachedOptions(cache, statistics);
             RocksDB store = RocksDB.open(cached, dir.resolve("cached").toString())) {
            List<byte[]> keys = writeRuns(store, 4, 2_000, 100);
            IdleCompactions compactions = IdleCompactions.unscheduled(Duration.ofSeconds(10), warm);
            PartitionCompaction partition = compactedWhenIdle(compactions, store, false);
            long cachedBytes = cache.getUsage();
            long before = statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
            for (byte[] key : keys) {
                assertThat(store.get(key)).as("value after the compaction").hasSize(100);
            }
            long misses = statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - before;
            compactions.unregister(partition);
            partition.close();
            return new AfterCompaction(cachedBytes, misses);
        }
    }

    /** A store's options as in {@link #open}, with {@code blocks} as its block cache and counted by {@code statistics}. */
    private static Options cachedOptions(LRUCache blocks, Statistics statistics) {
        return new Options().setCreateIfMissing(true).setCompactionStyle(CompactionStyle.UNIVERSAL)
                .setDisableAutoCompactions(true).setStatistics(statistics)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(blocks));
    }

    /** Partition 0 of {@code store} registered with {@code compactions} and compacted as idle (20 s after its open). */
    private static PartitionCompaction compactedWhenIdle(IdleCompactions compactions, RocksDB store,
                                                         boolean rowsCached) {
        PartitionCompaction partition = new PartitionCompaction("s", 0, store, store.getDefaultColumnFamily(), 0,
                rowsCached);
        compactions.register(partition);
        compactions.compactIdle(TimeUnit.SECONDS.toNanos(20));
        assertThat(compactions.compactions("s")).as("partitions compacted").isEqualTo(1);
        return partition;
    }

    /** {@code runs} flushed runs of {@code perRun} keys each (the same keys in every run), random values. */
    private List<byte[]> writeRuns(int runs, int perRun, int valueBytes) throws RocksDBException {
        return writeRuns(db, runs, perRun, valueBytes);
    }

    private static List<byte[]> writeRuns(RocksDB db, int runs, int perRun, int valueBytes) throws RocksDBException {
        Random random = new Random(SEED + runs * 31L + perRun);
        List<byte[]> keys = new ArrayList<>();
        try (WriteOptions write = new WriteOptions().setDisableWAL(true);
             FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            for (int run = 0; run < runs; run++) {
                try (WriteBatch batch = new WriteBatch()) {
                    for (int i = 0; i < perRun; i++) {
                        byte[] value = new byte[valueBytes];
                        random.nextBytes(value);
                        batch.put(key(i), value);
                        if (run == 0) {
                            keys.add(key(i));
                        }
                    }
                    db.write(write, batch);
                }
                db.flush(flush, db.getDefaultColumnFamily());
            }
        }
        return keys;
    }

    private List<byte[]> read(List<byte[]> keys) throws RocksDBException {
        List<byte[]> values = new ArrayList<>();
        for (byte[] key : keys) {
            values.add(db.get(columnFamily, key));
        }
        return values;
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }
}
