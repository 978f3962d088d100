package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB memory every store of an instance shares, within one bound: the product view's row cache and block
 * cache, the other stores' block cache, and the write buffer manager that charges every memtable to the last. With a
 * product-view share of 0 there is one block cache and no row cache.
 *
 * @param productView  the block cache of {@link StoreNames#PRODUCTS}
 * @param others       the block cache of every other store, charged with the memtables
 * @param writeBuffers bounds all memtables to a quarter of the bound
 * @param productRows  the row cache of {@link StoreNames#PRODUCTS} (whole values by key, for point reads), or null
 */
record SharedMemory(Cache productView, Cache others, WriteBufferManager writeBuffers, Cache productRows) {

    /** Memtables may take this share of the bound; idle, they give it back to the blocks. */
    static final double WRITE_BUFFER_SHARE = 0.25;
    /** LRU's high-priority pool, which only the write buffer manager's reservations use here. */
    private static final double HIGH_PRIORITY_POOL = 0.1;

    static SharedMemory of(long boundBytes, double productViewShare) {
        return of(boundBytes, productViewShare, 0);
    }

    /**
     * @param productViewShare the product view's share of the bound
     * @param rowShare         the share of the product view's bytes that is its row cache (the rest its block cache)
     */
    static SharedMemory of(long boundBytes, double productViewShare, double rowShare) {
        long productViewBytes = (long) (boundBytes * productViewShare);
        long rowBytes = (long) (productViewBytes * rowShare);
        Cache others = new LRUCache(boundBytes - productViewBytes, -1, false, HIGH_PRIORITY_POOL);
        Cache productView = productViewBytes == 0 ? others
                : new LRUCache(productViewBytes - rowBytes, -1, false, HIGH_PRIORITY_POOL);
        return new SharedMemory(productView, others,
                new WriteBufferManager((long) (boundBytes * WRITE_BUFFER_SHARE), others),
                rowBytes == 0 ? null : new LRUCache(rowBytes));
    }

    /** The block cache of {@code storeName}'s tables. */
    Cache blockCacheOf(String storeName) {
        return storeName.equals(StoreNames.PRODUCTS) ? productView : others;
    }
}
