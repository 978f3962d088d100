package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.BatchWritingStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.util.Optional;

/**
 * Writes a rebuild's derived entries into the store's RocksDB in a write batch of their own, the way Kafka Streams'
 * restore writes a batch of changelog records ({@code RocksDBStore.restoreBatch}: one {@code WriteBatch} per batch,
 * written straight to the database, not through a transaction), without first dressing each entry as a changelog
 * record at the row's offset for that restore to unpack again.
 *
 * <p>Why: a rebuild derives about 30 entries per row; handing them to Kafka Streams' restore as records cost
 * 14.5 % of the restoring threads' samples in record handling alone (checks, position updates: docs/benchmarks.md,
 * step 36), for entries whose position is their row's, which the row's own record already set.
 *
 * <p>Safe for the same reason as before: a rebuild's writes were already outside any transaction, and the rebuild
 * marker (deleted with the last batch) makes an interrupted derivation start again from the rows.
 */
final class RestoreBatchWrites {

    private final KeyValueStore<Bytes, byte[]> store;
    private final BatchWritingStore batches;

    private RestoreBatchWrites(KeyValueStore<Bytes, byte[]> store, BatchWritingStore batches) {
        this.store = store;
        this.batches = batches;
    }

    /** The batch writes of {@code store} when it is a RocksDB store that takes them; empty otherwise. */
    static Optional<RestoreBatchWrites> of(KeyValueStore<Bytes, byte[]> store) {
        return store instanceof BatchWritingStore batches ? Optional.of(new RestoreBatchWrites(store, batches))
                : Optional.empty();
    }

    /** Writes every held write (the last of each key, in key order) in one batch, and forgets them. */
    void write(IndexWritesInKeyOrder held) {
        try (WriteBatch batch = new WriteBatch()) {
            held.drainTo(into(batch));
            batches.write(batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("store " + store.name() + ": writing a rebuild's derived entries failed",
                    e);
        }
    }

    private EntryStore into(WriteBatch batch) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                throw new UnsupportedOperationException("a write batch is not read");
            }

            @Override
            public void put(Bytes key, byte[] value) {
                add(key, value);
            }

            @Override
            public void delete(Bytes key) {
                add(key, null);
            }

            private void add(Bytes key, byte[] value) {
                try {
                    batches.addToBatch(KeyValue.pair(key.get(), value), batch);
                } catch (RocksDBException e) {
                    throw new ProcessorStateException("store " + store.name() + ": adding key " + key
                            + " to a rebuild's batch failed", e);
                }
            }
        };
    }
}
