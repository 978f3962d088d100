package io.catalogviews.views.streams;

import static org.assertj.core.api.Assertions.assertThat;

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
        try (Options options = new Options()) {
            options.setTableFormatConfig(new BlockBasedTableConfig());
            new BoundedMemoryRocksDbConfig().setConfig("product-view", options,
                    Map.of(BoundedMemoryRocksDbConfig.MEMORY_BYTES_CONFIG, String.valueOf(64L << 20)));

            // Point reads that miss the memtables (most of them) are answered by the bloom, not a skip-list search.
            assertThat(options.memtableWholeKeyFiltering()).isTrue();
            assertThat(options.memtablePrefixBloomSizeRatio()).isEqualTo(BoundedMemoryRocksDbConfig.MEMTABLE_BLOOM_RATIO);
            assertThat(((BlockBasedTableConfig) options.tableFormatConfig()).dataBlockIndexType())
                    .isEqualTo(DataBlockIndexType.kDataBlockBinaryAndHash);
        }
    }
}
