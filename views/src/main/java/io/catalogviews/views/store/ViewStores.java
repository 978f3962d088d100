package io.catalogviews.views.store;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Persistent (RocksDB) view stores that keep their index and facet entries beside their rows, unlogged. */
public final class ViewStores implements KeyValueBytesStoreSupplier {

    private final KeyValueBytesStoreSupplier rocksDb;
    private final RowDerivation derivation;

    ViewStores(KeyValueBytesStoreSupplier rocksDb, RowDerivation derivation) {
        this.rocksDb = rocksDb;
        this.derivation = derivation;
    }

    /** The product view: rows by id, the whole catalog's and each category's indexes and facets. */
    public static ViewStores products(String name) {
        return new ViewStores(Stores.persistentKeyValueStore(name), RowDerivation.PRODUCTS);
    }

    @Override
    public String name() {
        return rocksDb.name();
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new DerivedEntriesStore(rocksDb.get(), derivation);
    }

    @Override
    public String metricsScope() {
        return rocksDb.metricsScope();
    }
}
