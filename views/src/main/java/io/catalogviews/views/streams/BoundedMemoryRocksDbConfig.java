package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.Options;

import java.util.Map;

/**
 * Bounds the RocksDB memory of all stores of this JVM: two block caches (the product view's own, and one for the other
 * stores) and one write buffer manager that charges every memtable to the second, instead of Streams' per-store
 * defaults (which, multiplied by stores, tasks and standbys, would exceed several GB on a large catalog). Point-read
 * stores get bloom filters. Index and filter blocks are the one part outside the bound: they stay with each open table
 * (about 1.3 % of the bound at the documented sizing), which saves two cache lookups per file a point read looks into.
 *
 * <p>The product view has a cache of its own because its reads are the ones a miss hurts most (one block per product
 * read, a request waiting on it). It was given one when the category listings had a store of their own, whose reads
 * came in bursts (pages assembled once per change, the first assemblies after a start, a load or a re-price reading
 * it by the gigabyte) and evicted products from a shared LRU cache: in the full profile's catalog a product read then
 * missed 0.24 times per request (docs/benchmarks.md, step 31). The categories' entries now live in the product view
 * and share its cache. {@value #PRODUCT_VIEW_CACHE_SHARE_CONFIG} of 0 gives every store one shared cache again.
 *
 * <p>Kafka Streams instantiates this class per store by name, so the caches have to live in statics; they are created
 * once, sized by {@value #MEMORY_BYTES_CONFIG} and {@value #PRODUCT_VIEW_CACHE_SHARE_CONFIG} of the first store
 * configured in this JVM.
 */
public final class BoundedMemoryRocksDbConfig implements RocksDBConfigSetter {

    /** Total bytes for block cache plus memtables of all stores of this JVM. */
    public static final String MEMORY_BYTES_CONFIG = "catalog.views.rocksdb.memory.bytes";
    public static final long DEFAULT_MEMORY_BYTES = 256L * 1024 * 1024;
    /**
     * Share of {@value #MEMORY_BYTES_CONFIG} that is the product view's own caches (its row cache and its block cache,
     * {@value #PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG}); 0 shares one block cache among all stores and keeps no row
     * cache. 0.5 held the whole product view at the documented sizing of 3 KB per product while it held rows and the
     * whole catalog's entries only (about 1 KB per product; with 0.4 its reads still missed 6 % at 1 000 000
     * products, docs/benchmarks.md, step 31); since the categories' entries live there too (several KB per product)
     * no share holds it all, and the default is the largest share the other stores' memtables allow: 0.7, of which
     * the row cache holds the rows (about 1.1 KB per product) and the block cache the rest it can (step 34).
     */
    public static final String PRODUCT_VIEW_CACHE_SHARE_CONFIG = "catalog.views.rocksdb.product.view.cache.share";
    public static final double DEFAULT_PRODUCT_VIEW_CACHE_SHARE = 0.7;
    /** Above this the other stores' cache could not hold the memtables the write buffer manager allows. */
    public static final double MAX_PRODUCT_VIEW_CACHE_SHARE = 0.7;
    /**
     * Share of the product view's cache that is RocksDB's row cache: whole rows by key, looked up by point reads (get
     * by id, batches, a page's rows) before any block, and never filled or evicted by range scans. Since the
     * categories' index entries live in the product view (one stage), scans that assemble category pages read their
     * blocks through the product view's block cache and evicted rows from it: get by id's first window after the
     * harness's all-class warm-up found 0.50–0.71 of its blocks there (300 000 products). The rest of the share stays
     * the block cache, for the index entries and for rows the row cache does not hold. Measured in
     * docs/benchmarks.md, step 34.
     */
    public static final String PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG = "catalog.views.rocksdb.product.view.row.cache.share";
    public static final double DEFAULT_PRODUCT_VIEW_ROW_CACHE_SHARE = 0.57;
    /** The product view's block cache keeps at least this share of its cache (index blocks, rows not held). */
    public static final double MAX_PRODUCT_VIEW_ROW_CACHE_SHARE = 0.9;
    /** Bloom bits per memtable byte: 2 % of an 8 MB memtable is ~1.3 M bits, over 10 per key for ~100-byte keys. */
    static final double MEMTABLE_BLOOM_RATIO = 0.02;
    /**
     * Sorted runs a store gathers before universal compaction merges them (RocksDB's default is 4). Merging eight at
     * a time rewrites each byte less often: under a churn of price and stock changes the flushes' and compactions' CPU
     * per change fell to 0.62x, the stream threads' to 0.85x, and changes were materialized 1.28x faster (1.31x at
     * 1 000 000 products). The price is paid by point reads, which look into up to twice as many runs (a batch of 100
     * about 6 % more CPU relative to the ceiling, within the spread of its runs): docs/benchmarks.md, step 28. Set for
     * every store: for the category store of that release alone it cut the compactions' CPU by a tenth (one run).
     */
    static final int SORTED_RUNS_BEFORE_COMPACTION = 8;

    private static SharedMemory shared;

    private static synchronized SharedMemory shared(long memoryBytes, double productViewShare, double rowShare) {
        if (shared == null) {
            shared = SharedMemory.of(memoryBytes, productViewShare, rowShare);
        }
        return shared;
    }

    /**
     * The product view's share of the bound, from {@code configs}.
     *
     * @throws IllegalArgumentException naming the key when the value is not a number from 0 to
     *                                  {@value #MAX_PRODUCT_VIEW_CACHE_SHARE}
     */
    public static double productViewShare(Map<String, ?> configs) {
        return share(configs, PRODUCT_VIEW_CACHE_SHARE_CONFIG, DEFAULT_PRODUCT_VIEW_CACHE_SHARE,
                MAX_PRODUCT_VIEW_CACHE_SHARE);
    }

    /**
     * The share of the product view's cache that is its row cache, from {@code configs}.
     *
     * @throws IllegalArgumentException naming the key when the value is not a number from 0 to
     *                                  {@value #MAX_PRODUCT_VIEW_ROW_CACHE_SHARE}
     */
    public static double productViewRowShare(Map<String, ?> configs) {
        return share(configs, PRODUCT_VIEW_ROW_CACHE_SHARE_CONFIG, DEFAULT_PRODUCT_VIEW_ROW_CACHE_SHARE,
                MAX_PRODUCT_VIEW_ROW_CACHE_SHARE);
    }

    private static double share(Map<String, ?> configs, String key, double defaultShare, double max) {
        Object value = configs.get(key);
        if (value == null) {
            return defaultShare;
        }
        double share;
        try {
            share = value instanceof Number number ? number.doubleValue() : Double.parseDouble(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number from 0 to " + max + ", was '" + value + "'", e);
        }
        // The negated test also refuses NaN.
        if (!(share >= 0 && share <= max)) {
            throw new IllegalArgumentException(key + " must be a number from 0 to " + max + ", was '" + value + "'");
        }
        return share + 0.0; // -0.0 becomes 0
    }

    /**
     * Whether store {@code storeName} gets a row cache under {@code configs} (the application's Streams properties):
     * this class is their RocksDB config setter, the store is the product view and both its shares are above 0.
     */
    public static boolean cachesRowsOf(String storeName, Map<String, ?> configs) {
        Object setter = configs.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
        boolean thisSetter = setter == BoundedMemoryRocksDbConfig.class
                || setter instanceof String name && name.trim().equals(BoundedMemoryRocksDbConfig.class.getName());
        return thisSetter && storeName.equals(StoreNames.PRODUCTS) && productViewShare(configs) > 0
                && productViewRowShare(configs) > 0;
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Object configured = configs.get(MEMORY_BYTES_CONFIG);
        long memoryBytes = configured == null ? DEFAULT_MEMORY_BYTES : Long.parseLong(configured.toString());
        configure(storeName, options, shared(memoryBytes, productViewShare(configs), productViewRowShare(configs)));
    }

    /** Sets {@code storeName}'s options, its tables cached in {@code memory}. */
    static void configure(String storeName, Options options, SharedMemory memory) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(memory.blockCacheOf(storeName));
        if (storeName.equals(StoreNames.PRODUCTS) && memory.productRows() != null) {
            options.setRowCache(memory.productRows());
        }
        // Index and filter blocks live with each open table, outside the cache (about 40 MB at 1 000 000 products,
        // 1.3 % of the harness's budget): a point read then makes one cache lookup per file instead of three, which
        // made batches of 100 use 0.78x the CPU at 1 000 000 products (docs/benchmarks.md, step 15).
        table.setCacheIndexAndFilterBlocks(false);
        table.setFilterPolicy(new BloomFilter(10, false));
        // Point reads (a product, a page's rows) find their key in a data block through a small hash table instead
        // of a binary search plus a scan of up to 16 entries; range scans are unaffected.
        table.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash);
        table.setDataBlockHashTableUtilRatio(0.75);
        options.setTableFormatConfig(table);
        // A point read looks in the memtables before the files; most reads (a product, a row before its change)
        // miss them, and without a filter each miss is a full skip-list search (a sixth of a batch read's CPU in a
        // profile). A whole-key bloom in each memtable answers those misses with a few hashes.
        options.setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO);
        options.setMemtableWholeKeyFiltering(true);
        options.setWriteBufferManager(memory.writeBuffers());
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
