package io.catalogviews.views.store;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** The view-store contract over Kafka Streams' in-memory store: the derivation does not depend on RocksDB. */
class InMemoryViewStoreTest extends ViewStoreContractTest {

    @Override
    KeyValueBytesStoreSupplier productView(String name) {
        return new ViewStores(Stores.inMemoryKeyValueStore(name), RowDerivation.PRODUCTS);
    }
}
