package io.catalogviews.views.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.FlushOptions;
import org.rocksdb.HistogramType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

class BlockCacheCountersTest {

    static {
        RocksDB.loadLibrary();
    }

    @TempDir
    Path dir;

    @Test
    void shouldCountAMissThenAHitWhenAStoredRowIsReadTwice() throws RocksDBException {
        String store = "counted-" + UUID.randomUUID();
        byte[] key = "p-1".getBytes(StandardCharsets.UTF_8);
        try (Options options = configured(store);
             RocksDB db = RocksDB.open(options, dir.toString());
             FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.put(key, "{\"id\":\"p-1\"}".getBytes(StandardCharsets.UTF_8));
            db.flush(flush);
            assertThat(BlockCacheCounters.dataMisses(store)).isZero();

            assertThat(db.get(key)).isNotNull();
            // The first read brings the row's block from its table file, the second finds it in the cache.
            assertThat(BlockCacheCounters.dataMisses(store)).isEqualTo(1);
            assertThat(BlockCacheCounters.dataHits(store)).isZero();
            assertThat(db.get(key)).isNotNull();
            assertThat(BlockCacheCounters.dataHits(store)).isEqualTo(1);
            // Counters only: no read or write is timed into a histogram (a clock read each).
            assertThat(BlockCacheCounters.forStore(store).getHistogramData(HistogramType.DB_GET).getCount()).isZero();
            assertThat(BlockCacheCounters.forStore(store).getHistogramData(HistogramType.DB_WRITE).getCount())
                    .isZero();
        }
        // Closing the store leaves the counts readable: the next store of the name adds to them.
        assertThat(BlockCacheCounters.dataHits(store)).isEqualTo(1);
    }

    @Test
    void shouldCountNothingWhenNoStoreOfTheNameWasOpened() {
        String store = "never-opened-" + UUID.randomUUID();

        assertThat(BlockCacheCounters.dataHits(store)).isZero();
        assertThat(BlockCacheCounters.dataMisses(store)).isZero();
    }

    private static Options configured(String store) {
        Options options = new Options().setCreateIfMissing(true);
        options.setTableFormatConfig(new BlockBasedTableConfig());
        new BoundedMemoryRocksDbConfig().setConfig(store, options,
                Map.of(BoundedMemoryRocksDbConfig.MEMORY_BYTES_CONFIG, String.valueOf(64L << 20)));
        return options;
    }
}
