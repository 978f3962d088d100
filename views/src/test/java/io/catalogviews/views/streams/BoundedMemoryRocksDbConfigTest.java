package io.catalogviews.views.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.StoreNames;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

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
    void shouldGiveOnlyTheCategoryStoreLargerBlocksWhenItsEntriesCarryTheServingJson() {
        long categoryBlock = blockSizeOf(StoreNames.CATEGORY_LISTINGS);
        long productBlock = blockSizeOf(StoreNames.PRODUCTS);

        // A page of 60 entries of ~330 bytes crosses a quarter as many blocks; point-read stores keep RocksDB's size.
        assertThat(categoryBlock).isEqualTo(BoundedMemoryRocksDbConfig.CATEGORY_BLOCK_BYTES).isEqualTo(16 * 1024);
        assertThat(productBlock).isEqualTo(new BlockBasedTableConfig().blockSize()).isLessThan(categoryBlock);
    }

    @Test
    void shouldLetUniversalCompactionGatherEightSortedRunsWhenAStoreIsConfigured() {
        for (String store : new String[] {StoreNames.PRODUCTS, StoreNames.CATEGORY_LISTINGS}) {
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
}
