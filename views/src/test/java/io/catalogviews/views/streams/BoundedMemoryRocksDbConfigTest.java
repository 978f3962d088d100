package io.catalogviews.views.streams;

import static org.assertj.core.api.Assertions.assertThat;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

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

    @Test
    void shouldRunCompactionsAtTheLowestCpuPriorityWhenAStoreIsConfigured(@TempDir Path dir) throws Exception {
        Path tasks = Path.of("/proc/self/task");
        assumeTrue(Files.isDirectory(tasks), "thread priorities are read from Linux's /proc");
        try (Options options = new Options()) {
            options.setTableFormatConfig(new BlockBasedTableConfig());
            options.setCreateIfMissing(true);
            new BoundedMemoryRocksDbConfig().setConfig("category-listings", options,
                    Map.of(BoundedMemoryRocksDbConfig.MEMORY_BYTES_CONFIG, String.valueOf(64L << 20)));
            try (RocksDB db = RocksDB.open(options, dir.toString()); FlushOptions flush = new FlushOptions()) {
                writeTwoOverlappingFiles(db, flush);
                db.compactRange(); // runs in the compaction pool, whose threads lower their priority before a job
            }
        }

        // nice 19: a compaction burst no longer takes the cores from the stream threads and HTTP (docs/benchmarks.md).
        assertThat(compactionThreadNiceValues(tasks)).isNotEmpty().contains(19);
    }

    private static void writeTwoOverlappingFiles(RocksDB db, FlushOptions flush) throws RocksDBException {
        for (int file = 0; file < 2; file++) {
            for (int i = 0; i < 1_000; i++) {
                db.put(("key-" + i).getBytes(StandardCharsets.UTF_8),
                        ("value-" + file).getBytes(StandardCharsets.UTF_8));
            }
            db.flush(flush.setWaitForFlush(true));
        }
    }

    /** The nice value of each thread of this JVM named {@code rocksdb:low} (RocksDB's compaction pool). */
    private static List<Integer> compactionThreadNiceValues(Path tasks) throws IOException {
        List<Integer> nice = new ArrayList<>();
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : threads.toList()) {
                String stat;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended while listed
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (name.startsWith("rocksdb:low")) {
                    // Fields after the name start at field 3 (state); nice is field 19.
                    nice.add(Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]));
                }
            }
        }
        return nice;
    }
}
