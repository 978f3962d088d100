package io.catalogviews.model;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** A read-only store that counts the entries its iterators hand out: what a scan examined. */
final class CountingStore implements ReadOnlyKeyValueStore<Bytes, byte[]> {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    long entriesRead;

    CountingStore(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    @Override
    public byte[] get(Bytes key) {
        return store.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return counting(store.range(from, to));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return counting(store.all());
    }

    @Override
    public long approximateNumEntries() {
        return store.approximateNumEntries();
    }

    private KeyValueIterator<Bytes, byte[]> counting(KeyValueIterator<Bytes, byte[]> it) {
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                entriesRead++;
                return it.next();
            }

            @Override
            public Bytes peekNextKey() {
                return it.peekNextKey();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }
}
