package io.catalogviews.views.streams;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.internals.StateStoreProvider;

import java.util.List;

/**
 * The key-value store type of interactive queries, except that a handle for one partition is resolved once,
 * when it is made, instead of on every call. The standard handle looks the partition's task up again for each
 * {@code get} (copying the thread's task sets each time): a listing page makes one range scan and ~60 row reads,
 * and those lookups cost about a quarter of its CPU. A handle lives for one request, or, for active copies, as long as
 * {@link ActiveStoreHandles} keeps it; if its task is closed under it, its calls throw
 * {@code InvalidStateStoreException} as the standard handle's do.
 */
final class PinnedStoreType<K, V> implements QueryableStoreType<ReadOnlyKeyValueStore<K, V>> {

    private final QueryableStoreType<ReadOnlyKeyValueStore<K, V>> standard = QueryableStoreTypes.keyValueStore();

    @Override
    public boolean accepts(StateStore stateStore) {
        return standard.accepts(stateStore);
    }

    @Override
    public ReadOnlyKeyValueStore<K, V> create(StateStoreProvider provider, String storeName) {
        List<ReadOnlyKeyValueStore<K, V>> stores = provider.stores(storeName, this);
        if (stores.size() != 1) {
            // No single partition asked for: the standard composite over every local partition.
            return standard.create(provider, storeName);
        }
        return stores.get(0).readOnly(provider.defaultIsolationLevel());
    }
}
