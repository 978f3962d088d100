package io.catalogviews.views.index;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A key-value store over a sorted map, for tests without Kafka. With {@code Bytes} keys it orders like RocksDB
 * (bytes compared unsigned, lexicographically). {@code range} is inclusive at both ends like Kafka Streams';
 * unlike RocksDB (which logs a warning and answers nothing), an inverted range fails, so that a test notices a
 * reader asking for one. Counts what readers do, and which iterators they left open.
 */
public final class SortedMapStore<K extends Comparable<? super K>> implements KeyValueStore<K, byte[]> {

    private final String name;
    private final NavigableMap<K, byte[]> map = new TreeMap<>();
    private int openIterators;
    private long rangeCalls;
    private long entriesRead;
    private long gets;

    public SortedMapStore(String name) {
        this.name = name;
    }

    public int openIterators() {
        return openIterators;
    }

    public long rangeCalls() {
        return rangeCalls;
    }

    public long entriesRead() {
        return entriesRead;
    }

    public long gets() {
        return gets;
    }

    public void resetCounters() {
        rangeCalls = 0;
        entriesRead = 0;
        gets = 0;
    }

    public int size() {
        return map.size();
    }

    public NavigableMap<K, byte[]> contents() {
        return map;
    }

    @Override
    public void put(K key, byte[] value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }

    @Override
    public byte[] putIfAbsent(K key, byte[] value) {
        byte[] previous = map.get(key);
        if (previous == null) {
            put(key, value);
        }
        return previous;
    }

    @Override
    public void putAll(List<KeyValue<K, byte[]>> entries) {
        entries.forEach(e -> put(e.key, e.value));
    }

    @Override
    public byte[] delete(K key) {
        return map.remove(key);
    }

    @Override
    public byte[] get(K key) {
        gets++;
        return map.get(key);
    }

    @Override
    public KeyValueIterator<K, byte[]> range(K from, K to) {
        return iterator(between(from, to));
    }

    /** Like {@link #range}, read from {@code to} down to {@code from}; counted as a range call (one seek). */
    @Override
    public KeyValueIterator<K, byte[]> reverseRange(K from, K to) {
        return iterator(between(from, to).descendingMap());
    }

    /** The entries from {@code from} to {@code to}, both inclusive (null: open); counts a range call. */
    private NavigableMap<K, byte[]> between(K from, K to) {
        rangeCalls++;
        if (from != null && to != null && from.compareTo(to) > 0) {
            throw new IllegalArgumentException("inverted range: from " + from + " > to " + to);
        }
        NavigableMap<K, byte[]> view = map;
        if (from != null) {
            view = view.tailMap(from, true);
        }
        if (to != null) {
            view = view.headMap(to, true);
        }
        return view;
    }

    @Override
    public KeyValueIterator<K, byte[]> all() {
        rangeCalls++;
        return iterator(map);
    }

    @Override
    public long approximateNumEntries() {
        return map.size();
    }

    private KeyValueIterator<K, byte[]> iterator(NavigableMap<K, byte[]> view) {
        Iterator<Map.Entry<K, byte[]>> it = view.entrySet().iterator();
        openIterators++;
        return new KeyValueIterator<>() {
            private Map.Entry<K, byte[]> peeked;
            private boolean closed;

            @Override
            public boolean hasNext() {
                checkOpen();
                return peeked != null || it.hasNext();
            }

            @Override
            public KeyValue<K, byte[]> next() {
                checkOpen();
                Map.Entry<K, byte[]> e = peeked != null ? peeked : it.next();
                peeked = null;
                entriesRead++;
                return KeyValue.pair(e.getKey(), e.getValue());
            }

            @Override
            public K peekNextKey() {
                checkOpen();
                if (peeked == null) {
                    if (!it.hasNext()) {
                        throw new NoSuchElementException();
                    }
                    peeked = it.next();
                }
                return peeked.getKey();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    openIterators--;
                }
            }

            private void checkOpen() {
                if (closed) {
                    throw new IllegalStateException("iterator used after close");
                }
            }
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
    }

    @Override
    public void close() {
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return true;
    }
}
