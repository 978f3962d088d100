package io.catalogviews.views.streams;

import io.catalogviews.views.store.MultiGetStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.internals.StateStoreProvider;

import java.util.List;

/**
 * The key-value store type of interactive queries, except that a handle for one partition is resolved once,
 * when it is made, instead of on every call. The standard handle looks the partition's task up again for each
 * {@code get} (copying the thread's task sets each time): a listing page makes one range scan and ~60 row reads,
 * and those lookups cost about a quarter of its CPU. A handle lives for one request; if its task is closed under
 * it, its calls throw {@code InvalidStateStoreException} as the standard handle's do.
 *
 * <p>A view store's handle is the view of its own layer ({@link MultiGetStore#viewLayerOf}), a {@link MultiGetStore}
 * where RocksDB can read many keys at once, rather than the metering layer's copy of it, which hides that method.
 */
public final class PinnedStoreType implements QueryableStoreType<ReadOnlyKeyValueStore<Bytes, byte[]>> {

    private final QueryableStoreType<ReadOnlyKeyValueStore<Bytes, byte[]>> standard =
            QueryableStoreTypes.keyValueStore();

    @Override
    public boolean accepts(StateStore stateStore) {
        return standard.accepts(stateStore);
    }

    @Override
    public ReadOnlyKeyValueStore<Bytes, byte[]> create(StateStoreProvider provider, String storeName) {
        List<ReadOnlyKeyValueStore<Bytes, byte[]>> stores = provider.stores(storeName, this);
        if (stores.size() != 1) {
            // No single partition asked for: the standard composite over every local partition.
            return standard.create(provider, storeName);
        }
        KeyValueStore<Bytes, byte[]> viewLayer = MultiGetStore.viewLayerOf(stores.get(0));
        ReadOnlyKeyValueStore<Bytes, byte[]> store = viewLayer != null ? viewLayer : stores.get(0);
        return store.readOnly(provider.defaultIsolationLevel());
    }
}
