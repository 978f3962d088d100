package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB memory every store of an instance shares, within one bound: the product view's block cache, the other
 * stores' block cache, and the write buffer manager that charges every memtable to the second. With a product-view
 * share of 0 both are one cache.
 *
 * @param productView  the block cache of {@link StoreNames#PRODUCTS}
 * @param others       the block cache of every other store, charged with the memtables
 * @param writeBuffers bounds all memtables to a quarter of the bound
 */
record SharedMemory(Cache productView, Cache others, WriteBufferManager writeBuffers) {

    /** Memtables may take this share of the bound; idle, they give it back to the blocks. */
    static final double WRITE_BUFFER_SHARE = 0.25;
    /** LRU's high-priority pool, which only the write buffer manager's reservations use here. */
    private static final double HIGH_PRIORITY_POOL = 0.1;

    static SharedMemory of(long boundBytes, double productViewShare) {
        long productViewBytes = (long) (boundBytes * productViewShare);
        Cache others = new LRUCache(boundBytes - productViewBytes, -1, false, HIGH_PRIORITY_POOL);
        Cache productView = productViewBytes == 0 ? others
                : new LRUCache(productViewBytes, -1, false, HIGH_PRIORITY_POOL);
        return new SharedMemory(productView, others,
                new WriteBufferManager((long) (boundBytes * WRITE_BUFFER_SHARE), others));
    }

    /** The block cache of {@code storeName}'s tables. */
    Cache blockCacheOf(String storeName) {
        return storeName.equals(StoreNames.PRODUCTS) ? productView : others;
    }
}
