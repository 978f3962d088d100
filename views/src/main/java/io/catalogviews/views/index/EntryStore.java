package io.catalogviews.views.index;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The three store operations that index maintenance needs, so that {@link IndexWriter} can write into a store of
 * its own (tests), a namespace of a view store (the service), or a restore batch being assembled.
 */
public interface EntryStore {

    byte[] get(Bytes key);

    void put(Bytes key, byte[] value);

    void delete(Bytes key);

    /** A whole key-value store. */
    static EntryStore of(KeyValueStore<Bytes, byte[]> store) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return store.get(key);
            }

            @Override
            public void put(Bytes key, byte[] value) {
                store.put(key, value);
            }

            @Override
            public void delete(Bytes key) {
                // Blind: KeyValueStore.delete returns the old value, so RocksDB's store reads the key before
                // deleting it; put(key, null) deletes without that read (measured: 36 % of the stream thread's
                // time, as index maintenance deletes about six keys per price change and scope).
                store.put(key, null);
            }
        };
    }

    /** The keys of {@code base} inside one {@link ViewLayout} namespace. */
    static EntryStore namespace(EntryStore base, byte namespace) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return base.get(ViewLayout.inNamespace(namespace, key));
            }

            @Override
            public void put(Bytes key, byte[] value) {
                base.put(ViewLayout.inNamespace(namespace, key), value);
            }

            @Override
            public void delete(Bytes key) {
                base.delete(ViewLayout.inNamespace(namespace, key));
            }
        };
    }
}
