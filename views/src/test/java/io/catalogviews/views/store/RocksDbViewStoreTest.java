package io.catalogviews.views.store;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/** The view-store contract on RocksDB, as the service runs it. */
class RocksDbViewStoreTest extends ViewStoreContractTest {

    @Override
    KeyValueBytesStoreSupplier productView(String name) {
        return ViewStores.products(name);
    }
}
