package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * One {@link ViewLayout} namespace of a view store, read as if it were a store of its own: keys go in without
 * the namespace byte and come out without it, so the listing engine reads indexes and facet counters the same
 * way whichever store holds them.
 */
public final class NamespacedStore implements ReadOnlyKeyValueStore<Bytes, byte[]> {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final byte namespace;

    public NamespacedStore(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte namespace) {
        this.store = store;
        this.namespace = namespace;
    }

    /** The whole catalog's sorted indexes. */
    public static NamespacedStore index(ReadOnlyKeyValueStore<Bytes, byte[]> view) {
        return new NamespacedStore(view, ViewLayout.INDEX);
    }

    /** The whole catalog's facet counters. */
    public static NamespacedStore facets(ReadOnlyKeyValueStore<Bytes, byte[]> view) {
        return new NamespacedStore(view, ViewLayout.FACETS);
    }

    /** The sorted indexes of a scope: the category scopes' when {@code categoryOrNull} names one, else the whole catalog's. */
    public static NamespacedStore index(ReadOnlyKeyValueStore<Bytes, byte[]> view, String categoryOrNull) {
        return new NamespacedStore(view, categoryOrNull == null ? ViewLayout.INDEX : ViewLayout.CATEGORY_INDEX);
    }

    /** The facet counters of a scope, as {@link #index(ReadOnlyKeyValueStore, String)}. */
    public static NamespacedStore facets(ReadOnlyKeyValueStore<Bytes, byte[]> view, String categoryOrNull) {
        return categoryOrNull == null ? facets(view) : categoryFacets(view);
    }

    /** The category scopes' facet counters: each category's total is the category list's count. */
    public static NamespacedStore categoryFacets(ReadOnlyKeyValueStore<Bytes, byte[]> view) {
        return new NamespacedStore(view, ViewLayout.CATEGORY_FACETS);
    }

    @Override
    public byte[] get(Bytes key) {
        return store.get(ViewLayout.inNamespace(namespace, key));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return new Stripping(store.range(lower(from), upper(to)));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return new Stripping(store.reverseRange(lower(from), upper(to)));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return range(null, null);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return reverseRange(null, null);
    }

    @Override
    public long approximateNumEntries() {
        return store.approximateNumEntries();
    }

    private Bytes lower(Bytes from) {
        return from == null ? Bytes.wrap(new byte[]{namespace}) : ViewLayout.inNamespace(namespace, from);
    }

    /** Inclusive: the single byte after the namespace is below every key of the next namespace but that byte. */
    private Bytes upper(Bytes to) {
        return to == null ? Bytes.wrap(new byte[]{(byte) (namespace + 1)}) : ViewLayout.inNamespace(namespace, to);
    }

    /** Drops the namespace byte, and the one key that an open upper bound can reach outside the namespace. */
    private final class Stripping implements KeyValueIterator<Bytes, byte[]> {
        private final KeyValueIterator<Bytes, byte[]> it;
        private KeyValue<Bytes, byte[]> next;

        Stripping(KeyValueIterator<Bytes, byte[]> it) {
            this.it = it;
        }

        @Override
        public boolean hasNext() {
            while (next == null && it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] k = kv.key.get();
                if (k.length > 1 && k[0] == namespace) {
                    next = KeyValue.pair(Bytes.wrap(Arrays.copyOfRange(k, 1, k.length)), kv.value);
                }
            }
            return next != null;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> out = next;
            next = null;
            return out;
        }

        @Override
        public Bytes peekNextKey() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return next.key;
        }

        @Override
        public void close() {
            it.close();
        }
    }

    /** The same namespace of the underlying store's view at {@code isolationLevel}. */
    @Override
    public ReadOnlyKeyValueStore<Bytes, byte[]> readOnly(org.apache.kafka.common.IsolationLevel isolationLevel) {
        return new NamespacedStore(store.readOnly(isolationLevel), namespace);
    }
}
