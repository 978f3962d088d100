package io.catalogviews.views.store;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The view-store contract on RocksDB, as the service runs it. */
class RocksDbViewStoreTest extends ViewStoreContractTest {

    @Override
    KeyValueBytesStoreSupplier productView(String name) {
        return ViewStores.products(name);
    }

    /**
     * The contract tests above run with index entries written straight into the transaction's batch only while this
     * Kafka Streams version has the internals that path reaches; after an upgrade that moves them, the store falls
     * back to the slower staging and this test says so.
     */
    @Test
    void shouldReachTheTransactionBatchWhenRunOnThisKafkaStreamsVersion() {
        assertThat(UnindexedBatchWrites.supported())
                .as("Kafka Streams' RocksDBStore.dbAccessor, TransactionalDBAccessor.buffer and "
                        + "RocksDBTransactionBuffer.cfHandle/writeBatch are reachable")
                .isTrue();
    }
}
