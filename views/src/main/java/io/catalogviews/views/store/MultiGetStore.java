package io.catalogviews.views.store;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.List;

/** A read-only view of a view store that reads many keys in one call (a batch of ids, the rows of a page). */
public interface MultiGetStore extends ReadOnlyKeyValueStore<Bytes, byte[]> {

    /** The values of {@code keys}, in their order, null for an absent key: what {@link #get} would give each. */
    List<byte[]> getAll(List<Bytes> keys);

    /** {@code keys} read through {@code store} in one call when it can, key by key otherwise. */
    static List<byte[]> getAll(ReadOnlyKeyValueStore<Bytes, byte[]> store, List<Bytes> keys) {
        if (store instanceof MultiGetStore multi) {
            return multi.getAll(keys);
        }
        List<byte[]> values = new ArrayList<>(keys.size());
        for (Bytes key : keys) {
            values.add(store.get(key));
        }
        return values;
    }

    /**
     * The innermost layer of a view store's stack whose {@code readOnly} views are {@link MultiGetStore}s where the
     * store can (Kafka Streams' metering layer above it wraps every view in its own class, which hides the extra
     * method; for byte keys and values it adds nothing else to a read). Null when {@code store} is no view store.
     */
    static KeyValueStore<Bytes, byte[]> viewLayerOf(Object store) {
        Object layer = store;
        while (layer instanceof org.apache.kafka.streams.state.internals.WrappedStateStore<?, ?, ?> wrapped) {
            if (layer instanceof DerivedEntriesStore derived) {
                return derived;
            }
            layer = wrapped.wrapped();
        }
        return null;
    }
}
