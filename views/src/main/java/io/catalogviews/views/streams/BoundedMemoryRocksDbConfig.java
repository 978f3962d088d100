package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

import java.util.Map;

/**
 * Bounds the RocksDB memory of all stores of this JVM: one shared block cache and one write buffer manager
 * that charges memtables to that cache, instead of Streams' per-store defaults (which, multiplied by stores,
 * tasks and standbys, would exceed several GB on a large catalog). Point-read stores get bloom filters. Index and
 * filter blocks are the one part outside the bound: they stay with each open table (about 1.3 % of the bound at the
 * documented sizing), which saves two cache lookups per file a point read looks into.
 *
 * <p>Kafka Streams instantiates this class per store by name, so the shared cache has to live in a static;
 * it is created once, sized by {@value #MEMORY_BYTES_CONFIG} of the first store configured in this JVM.
 */
public final class BoundedMemoryRocksDbConfig implements RocksDBConfigSetter {

    /** Total bytes for block cache plus memtables of all stores of this JVM. */
    public static final String MEMORY_BYTES_CONFIG = "catalog.views.rocksdb.memory.bytes";
    public static final long DEFAULT_MEMORY_BYTES = 256L * 1024 * 1024;
    private static final double WRITE_BUFFER_SHARE = 0.25;
    /** Bloom bits per memtable byte: 2 % of an 8 MB memtable is ~1.3 M bits, over 10 per key for ~100-byte keys. */
    static final double MEMTABLE_BLOOM_RATIO = 0.02;
    /** Data block size of the category listings store, whose index entries carry the serving JSON. */
    static final long CATEGORY_BLOCK_BYTES = 16 * 1024;
    /**
     * Sorted runs a store gathers before universal compaction merges them (RocksDB's default is 4). Merging eight at
     * a time rewrites each byte less often: under a churn of price and stock changes the flushes' and compactions' CPU
     * per change fell to 0.62x, the stream threads' to 0.85x, and changes were materialized 1.28x faster (1.31x at
     * 1 000 000 products). The price is paid by point reads, which look into up to twice as many runs (a batch of 100
     * about 6 % more CPU relative to the ceiling, within the spread of its runs): docs/benchmarks.md, step 28. Set for
     * every store: for the category store alone it cut the compactions' CPU by a tenth (one run).
     */
    static final int SORTED_RUNS_BEFORE_COMPACTION = 8;

    private static Cache cache;
    private static WriteBufferManager writeBufferManager;

    private static synchronized void ensureShared(long memoryBytes) {
        if (cache == null) {
            cache = new LRUCache(memoryBytes, -1, false, 0.1);
            writeBufferManager = new WriteBufferManager((long) (memoryBytes * WRITE_BUFFER_SHARE), cache);
        }
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Object configured = configs.get(MEMORY_BYTES_CONFIG);
        long memoryBytes = configured == null ? DEFAULT_MEMORY_BYTES : Long.parseLong(configured.toString());
        ensureShared(memoryBytes);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        // Index and filter blocks live with each open table, outside the cache (about 40 MB at 1 000 000 products,
        // 1.3 % of the harness's budget): a point read then makes one cache lookup per file instead of three, which
        // made batches of 100 use 0.78x the CPU at 1 000 000 products (docs/benchmarks.md, step 15).
        table.setCacheIndexAndFilterBlocks(false);
        table.setFilterPolicy(new BloomFilter(10, false));
        // Point reads (a product, a page's rows) find their key in a data block through a small hash table instead
        // of a binary search plus a scan of up to 16 entries; range scans are unaffected.
        table.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash);
        table.setDataBlockHashTableUtilRatio(0.75);
        if (storeName.equals(StoreNames.CATEGORY_LISTINGS)) {
            // Its page entries carry the serving JSON (~330 bytes): a 4 KB block holds about ten, so a page of 60
            // crossed six to eight blocks, each crossing a block-cache lookup (half of a page's RocksDB Next time in
            // a profile); 16 KB blocks cross a quarter as often (docs/benchmarks.md, step 23).
            table.setBlockSize(CATEGORY_BLOCK_BYTES);
        }
        options.setTableFormatConfig(table);
        // A point read looks in the memtables before the files; most reads (a product, a row before its change)
        // miss them, and without a filter each miss is a full skip-list search (a sixth of a batch read's CPU in a
        // profile). A whole-key bloom in each memtable answers those misses with a few hashes.
        options.setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO);
        options.setMemtableWholeKeyFiltering(true);
        options.setWriteBufferManager(writeBufferManager);
        options.setWriteBufferSize(8L * 1024 * 1024);
        options.setMaxWriteBufferNumber(2);
        // Kafka Streams sets universal compaction; slowdown (20) and stop (36) stay far above this trigger.
        options.setLevel0FileNumCompactionTrigger(SORTED_RUNS_BEFORE_COMPACTION);
        // Counts the block cache's hits and misses per store name (GET /metrics): what a read's speed depends on once
        // the views outgrow the cache.
        options.setStatistics(BlockCacheCounters.forStore(storeName));
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and write buffer manager are shared by every store of the JVM: never closed per store.
    }
}
