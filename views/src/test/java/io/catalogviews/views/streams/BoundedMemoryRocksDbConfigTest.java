package io.catalogviews.views.streams;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.views.StoreNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TickerType;

class BoundedMemoryRocksDbConfigTest {

    static {
        RocksDB.loadLibrary();
    }

    @Test
    void shouldGiveEveryMemtableAWholeKeyBloomWhenAStoreIsConfigured() {
        try (Options options = configured(StoreNames.PRODUCTS)) {
            // Point reads that miss the memtables (most of them) are answered by the bloom, not a skip-list search.
            assertThat(options.memtableWholeKeyFiltering()).isTrue();
            assertThat(options.memtablePrefixBloomSizeRatio()).isEqualTo(BoundedMemoryRocksDbConfig.MEMTABLE_BLOOM_RATIO);
            assertThat(((BlockBasedTableConfig) options.tableFormatConfig()).dataBlockIndexType())
                    .isEqualTo(DataBlockIndexType.kDataBlockBinaryAndHash);
        }
    }

    @Test
    void shouldLetUniversalCompactionGatherEightSortedRunsWhenAStoreIsConfigured() {
        for (String store : new String[] {StoreNames.PRODUCTS, StoreNames.PRODUCT_DELETIONS}) {
            assertGathersEightRuns(store);
        }
    }

    private static void assertGathersEightRuns(String store) {
        try (Options options = configured(store); Options defaults = new Options()) {
            // Fewer, wider merges: a churn's compactions took about half the CPU with eight as with RocksDB's four.
            assertThat(options.level0FileNumCompactionTrigger())
                    .isEqualTo(BoundedMemoryRocksDbConfig.SORTED_RUNS_BEFORE_COMPACTION).isEqualTo(8)
                    .isGreaterThan(defaults.level0FileNumCompactionTrigger());
            assertThat(options.level0SlowdownWritesTrigger()).isGreaterThan(options.level0FileNumCompactionTrigger());
        }
    }

    private static long blockSizeOf(String store) {
        try (Options options = configured(store)) {
            return ((BlockBasedTableConfig) options.tableFormatConfig()).blockSize();
        }
    }

    /** The options of {@code store} as Kafka Streams would hand them over, after the setter; the caller closes them. */
    private static Options configured(String store) {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfig());
        new BoundedMemoryRocksDbConfig().setConfig(store, options,
                Map.of(BoundedMemoryRocksDbConfig.MEMORY_BYTES_CONFIG, String.valueOf(64L << 20)));
        return options;
    }

    @Test
    void shouldKeepTheProductViewCachedWhenAnotherStoreReadsMoreThanTheWholeBound(@TempDir Path dir)
            throws RocksDBException {
        // 1 MB of products in a 4 MB cache of their own; the other store reads 16 MB through the other 4 MB.
        long misses = productMissesAfterOtherReads(dir, SharedMemory.of(8L << 20, 0.5));

        assertThat(misses).as("product blocks read from the table files again").isZero();
    }

    @Test
    void shouldLetAnotherStoreEvictTheProductViewWhenOneCacheIsSharedByEveryStore(@TempDir Path dir)
            throws RocksDBException {
        // The same reads with a share of 0: one 8 MB cache, which the other store's 16 MB sweep through.
        long misses = productMissesAfterOtherReads(dir, SharedMemory.of(8L << 20, 0));

        assertThat(misses).as("product blocks read from the table files again").isGreaterThan(100);
    }

    @Test
    void shouldServeProductsFromTheRowCacheWhenScansOfTheCategoryScopesSweepTheBlockCache(@TempDir Path dir)
            throws RocksDBException {
        // 4 MB for the product view: 2.4 MB of rows by key (1 MB of products fit), 1.6 MB of blocks, which a scan of
        // 16 MB of category entries in the same store sweeps through.
        long[] withRows = productMissesAndRowHitsAfterScans(dir.resolve("rows"), SharedMemory.of(8L << 20, 0.5, 0.6));
        long[] blocksOnly = productMissesAndRowHitsAfterScans(dir.resolve("blocks"), SharedMemory.of(8L << 20, 0.5, 0));

        assertThat(withRows[0]).as("product blocks read from the table files again, with a row cache").isZero();
        assertThat(withRows[1]).as("product reads answered by the row cache").isGreaterThanOrEqualTo(1_000);
        assertThat(blocksOnly[0]).as("product blocks read from the table files again, blocks only").isGreaterThan(100);
        assertThat(blocksOnly[1]).as("row cache hits without a row cache").isZero();
    }

    /**
     * Writes 1 MB of products and 16 MB of category entries (namespace 0x05) into one product-view store, reads the
     * products, scans the category entries, then reads the products again; returns that last read's data-block misses
     * and row-cache hits.
     */
    private static long[] productMissesAndRowHitsAfterScans(Path dir, SharedMemory memory) throws RocksDBException {
        try (Options options = options(StoreNames.PRODUCTS, memory);
             RocksDB products = RocksDB.open(options, dir.toString())) {
            fill(products, 1_000);
            byte[] value = new byte[1024];
            for (int i = 0; i < 16_000; i++) {
                products.put(categoryKey(i), value);
            }
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                products.flush(flush);
            }
            readAll(products, 1_000);
            try (org.rocksdb.RocksIterator scan = products.newIterator()) {
                int scanned = 0;
                for (scan.seek(new byte[] {0x05}); scan.isValid() && scan.key()[0] == 0x05; scan.next()) {
                    scanned++;
                }
                assertThat(scanned).as("category entries scanned").isEqualTo(16_000);
            }
            long misses = options.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
            long hits = options.statistics().getTickerCount(TickerType.ROW_CACHE_HIT);
            readAll(products, 1_000);
            return new long[] {options.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - misses,
                    options.statistics().getTickerCount(TickerType.ROW_CACHE_HIT) - hits};
        }
    }

    private static byte[] categoryKey(int i) {
        byte[] text = String.format("phones\u0000%08d", i).getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[text.length + 2];
        key[0] = 0x05;
        key[1] = 0x01;
        System.arraycopy(text, 0, key, 2, text.length);
        return key;
    }

    @Test
    void shouldReadTheRowShareOrRefuseItNamingTheKeyWhenConfigured() {
        assertThat(BoundedMemoryRocksDbConfig.productViewRowShare(Map.of()))
                .isEqualTo(BoundedMemoryRocksDbConfig.DEFAULT_PRODUCT_VIEW_ROW_CACHE_SHARE);
        assertThat(BoundedMemoryRocksDbConfig.productViewRowShare(
                Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG, "0"))).isZero();
        assertThat(BoundedMemoryRocksDbConfig.productViewRowShare(
                Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG, 0.9))).isEqualTo(0.9);
        assertRefusedNamingTheKey(BoundedMemoryRocksDbConfig::productViewRowShare,
                BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG,
                List.of("", "most", "-0.1", "0.91", "1", "NaN"));
    }

    /** Idle compaction reads a compacted partition's rows into the row cache only where there is one. */
    @Test
    void shouldTellARowCacheOnlyOfTheProductViewWhenThisSetterGivesItARowShare() {
        String setter = StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG;
        Map<String, Object> byName = Map.of(setter, BoundedMemoryRocksDbConfig.class.getName());
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCTS, byName)).as("by name").isTrue();
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCTS,
                Map.of(setter, BoundedMemoryRocksDbConfig.class))).as("by class").isTrue();
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCT_DELETIONS, byName))
                .as("another store").isFalse();
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCTS, Map.of())).as("no setter").isFalse();
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCTS,
                Map.of(setter, BoundedMemoryRocksDbConfig.class,
                        BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG, "0")))
                .as("row share 0").isFalse();
        assertThat(BoundedMemoryRocksDbConfig.cachesRowsOf(StoreNames.PRODUCTS,
                Map.of(setter, BoundedMemoryRocksDbConfig.class,
                        BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, 0)))
                .as("one shared cache").isFalse();
    }

    @Test
    void shouldReadTheProductViewShareWhenItIsANumberFromZeroToTheMaximum() {
        assertThat(BoundedMemoryRocksDbConfig.productViewShare(Map.of()))
                .isEqualTo(BoundedMemoryRocksDbConfig.DEFAULT_PRODUCT_VIEW_CACHE_SHARE);
        assertThat(BoundedMemoryRocksDbConfig.productViewShare(
                Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, " 0.25 "))).isEqualTo(0.25);
        assertThat(BoundedMemoryRocksDbConfig.productViewShare(
                Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, 0))).isZero();
        assertThat(BoundedMemoryRocksDbConfig.productViewShare(
                Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, "-1e-400")))
                .as("-0.0 read as 0").isEqualTo(0.0);
    }

    @Test
    void shouldRefuseAProductViewShareNamingTheKeyWhenItIsNotANumberInRange() {
        assertRefusedNamingTheKey(BoundedMemoryRocksDbConfig::productViewShare,
                BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG,
                List.of("", "half", "-0.1", "0.71", "1", "NaN", "Infinity", "1e400", "0.5d0"));
    }

    /** Each of {@code bad}, set under {@code key}, is refused by {@code share} with a message naming the key and it. */
    private static void assertRefusedNamingTheKey(Function<Map<String, ?>, Double> share, String key,
                                                  List<String> bad) {
        for (String value : bad) {
            assertThatThrownBy(() -> share.apply(Map.of(key, value)))
                    .as("%s '%s'", key, value)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining("'" + value + "'");
        }
    }

    @Test
    void shouldEitherAcceptAShareInRangeOrRefuseItNamingTheKeyWhenTheTextIsArbitrary() {
        Random random = new Random(20261205L);
        String alphabet = "0123456789.-+eE xXpPNaInfity_,";
        for (int i = 0; i < 5_000; i++) {
            char[] text = new char[random.nextInt(8)];
            for (int c = 0; c < text.length; c++) {
                text[c] = random.nextInt(20) == 0 ? (char) random.nextInt(0x3000) : alphabet.charAt(random.nextInt(
                        alphabet.length()));
            }
            String value = new String(text);
            Map<String, Object> configs = Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, value);
            try {
                double share = BoundedMemoryRocksDbConfig.productViewShare(configs);
                assertThat(share).as("share from '%s'", value).isBetween(0.0,
                        BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_CACHE_SHARE);
            } catch (IllegalArgumentException e) {
                assertThat(e).as("refusal of '%s'", value)
                        .hasMessageContaining(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG);
            }
            Map<String, Object> rowConfigs = Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG, value);
            try {
                assertThat(BoundedMemoryRocksDbConfig.productViewRowShare(rowConfigs)).as("row share from '%s'", value)
                        .isBetween(0.0, BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_ROW_CACHE_SHARE);
            } catch (IllegalArgumentException e) {
                assertThat(e).as("refusal of row share '%s'", value)
                        .hasMessageContaining(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG);
            }
        }
    }

    /**
     * Writes and reads 1 MB of products, then 16 MB of another store's entries (the deletion index's), then the
     * products again; returns the product view's data-block misses of that last read.
     */
    private static long productMissesAfterOtherReads(Path dir, SharedMemory memory) throws RocksDBException {
        try (Options productOptions = options(StoreNames.PRODUCTS, memory);
             Options categoryOptions = options(StoreNames.PRODUCT_DELETIONS, memory);
             RocksDB products = RocksDB.open(productOptions, dir.resolve("products").toString());
             RocksDB categories = RocksDB.open(categoryOptions, dir.resolve("categories").toString())) {
            fill(products, 1_000);
            fill(categories, 16_000);
            readAll(products, 1_000);
            readAll(categories, 16_000);
            long before = productOptions.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
            readAll(products, 1_000);
            return productOptions.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - before;
        }
    }

    private static Options options(String store, SharedMemory memory) {
        Options options = new Options().setCreateIfMissing(true);
        options.setTableFormatConfig(new BlockBasedTableConfig());
        BoundedMemoryRocksDbConfig.configure(store, options, memory);
        return options;
    }

    /** {@code count} entries of 1 KB, flushed to a table file so that reads go through the block cache. */
    private static void fill(RocksDB db, int count) throws RocksDBException {
        byte[] value = new byte[1024];
        Arrays.fill(value, (byte) 'x');
        for (int i = 0; i < count; i++) {
            db.put(key(i), value);
        }
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        }
    }

    private static void readAll(RocksDB db, int count) throws RocksDBException {
        for (int i = 0; i < count; i++) {
            assertThat(db.get(key(i))).as("entry %d", i).hasSize(1024);
        }
    }

    private static byte[] key(int i) {
        return String.format("k-%08d", i).getBytes(StandardCharsets.UTF_8);
    }
}
