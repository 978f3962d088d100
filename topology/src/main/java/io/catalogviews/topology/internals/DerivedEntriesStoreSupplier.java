package io.catalogviews.topology.internals;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Persistent (RocksDB) view stores that keep their index and facet entries beside their rows, unlogged. */
public final class DerivedEntriesStoreSupplier implements KeyValueBytesStoreSupplier {

    private final KeyValueBytesStoreSupplier rocksDb;
    private final RowDerivation derivation;

    private DerivedEntriesStoreSupplier(String name, RowDerivation derivation) {
        this.rocksDb = Stores.persistentKeyValueStore(name);
        this.derivation = derivation;
    }

    /** The product view: rows by id, whole-catalog indexes and facets. */
    public static DerivedEntriesStoreSupplier products(String name) {
        return new DerivedEntriesStoreSupplier(name, RowDerivation.PRODUCTS);
    }

    /** Category listings: rows by category and id, category indexes and facets. */
    public static DerivedEntriesStoreSupplier categoryListings(String name) {
        return new DerivedEntriesStoreSupplier(name, RowDerivation.CATEGORY_LISTINGS);
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
