package io.catalogviews.views.store;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.List;

/** A store's read-only view, with its multi-key reads done by RocksDB on the same state. */
final class MultiGetView implements MultiGetStore {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> view;
    private final CommittedMultiGet multiGet;

    MultiGetView(ReadOnlyKeyValueStore<Bytes, byte[]> view, CommittedMultiGet multiGet) {
        this.view = view;
        this.multiGet = multiGet;
    }

    @Override
    public List<byte[]> getAll(List<Bytes> keys) {
        return multiGet.getAll(keys);
    }

    @Override
    public byte[] get(Bytes key) {
        return view.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return view.range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return view.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return view.all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return view.reverseAll();
    }

    @Override
    public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P> KeyValueIterator<Bytes, byte[]>
            prefixScan(P prefix, PS prefixKeySerializer) {
        return view.prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return view.approximateNumEntries();
    }
}
