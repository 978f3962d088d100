package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.query.QueryFailure;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link ProductQueries} over the local partitions of the product view, through Kafka Streams interactive
 * queries. {@link #get} and {@link #getAll} read only active tasks: a standby or restoring partition answers
 * {@link QueryFailure}; the {@code FromAnyReplica} reads (failover) also read standby and restoring copies.
 */
public final class StreamsProductQueries implements ProductQueries {

    private final KafkaStreams streams;
    private final int partitions;
    private final ActiveStoreHandles handles;

    /**
     * @param partitions the partition count of the input topic, which the product view mirrors
     */
    public StreamsProductQueries(KafkaStreams streams, int partitions) {
        this(streams, partitions, ActiveStoreHandles.perRequest(streams));
    }

    /**
     * @param handles the active stores' handles kept between requests (dropped by the application's state changes
     *                and its stores' closes; see {@link ActiveStoreHandles}), or {@link ActiveStoreHandles#perRequest}
     */
    public StreamsProductQueries(KafkaStreams streams, int partitions, ActiveStoreHandles handles) {
        this.streams = streams;
        this.partitions = partitions;
        this.handles = handles;
    }

    @Override
    public ProductLookup get(String id) {
        int partition = KeyPartitioner.partitionOf(id, partitions);
        Object store = storeFor(partition);
        if (store instanceof QueryFailure failure) {
            return new ProductLookup.Failed(failure);
        }
        return read(castStore(store), partition, id);
    }

    @Override
    public List<ProductLookup> getAll(List<String> ids) {
        Map<Integer, Object> stores = new HashMap<>();
        List<ProductLookup> results = new ArrayList<>(ids.size());
        for (String id : ids) {
            int partition = KeyPartitioner.partitionOf(id, partitions);
            Object store = stores.computeIfAbsent(partition, this::storeFor);
            results.add(store instanceof QueryFailure failure
                    ? new ProductLookup.Failed(failure)
                    : read(castStore(store), partition, id));
        }
        return results;
    }

    @Override
    public ReplicaRead getFromAnyReplica(String id) {
        ReplicaBatch batch = getAllFromAnyReplica(List.of(id));
        return new ReplicaRead(batch.lookups().get(0), batch.lagRecords());
    }

    @Override
    public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
        // Lags first: the copies only move forward, so what is read next is at most this far behind.
        Map<Integer, Long> lags = LocalLags.of(streams, StoreNames.PRODUCTS);
        Map<Integer, Object> stores = new HashMap<>();
        Set<Integer> read = new TreeSet<>();
        List<ProductLookup> results = new ArrayList<>(ids.size());
        for (String id : ids) {
            int partition = KeyPartitioner.partitionOf(id, partitions);
            read.add(partition);
            Object store = stores.computeIfAbsent(partition, this::anyReplicaStoreFor);
            results.add(store instanceof QueryFailure failure
                    ? new ProductLookup.Failed(failure)
                    : read(castStore(store), partition, id));
        }
        return new ReplicaBatch(results, LocalLags.max(lags, read));
    }

    /** Any local copy of the partition's store (active, restoring or standby), or why there is none. */
    private Object anyReplicaStoreFor(int partition) {
        try {
            return streams.store(StoreQueryParameters
                    .fromNameAndType(StoreNames.PRODUCTS, new PinnedStoreType<Bytes, byte[]>())
                    .withPartition(partition).enableStaleStores());
        } catch (InvalidStateStoreException | IllegalStateException e) {
            return QueryFailure.retryLater("store " + StoreNames.PRODUCTS + " partition " + partition
                    + " has no local replica to read now: " + e.getMessage());
        }
    }

    private static ProductLookup read(ReadOnlyKeyValueStore<Bytes, byte[]> store, int partition, String id) {
        ProductId checked = ProductId.parse(id).orElse(null);
        if (checked == null) {
            return ProductLookup.ABSENT; // an id outside the grammar is never held (and never read as a key)
        }
        byte[] row;
        try {
            row = store.get(RowKeys.product(checked));
        } catch (InvalidStateStorePartitionException e) {
            // Raised when the handle is made (PinnedStoreType); kept for a standard handle.
            return new ProductLookup.Failed(QueryFailure.notHostedHere("store " + StoreNames.PRODUCTS
                    + " partition " + partition + " is not hosted by this instance (or is still restoring)"));
        } catch (InvalidStateStoreException | IllegalStateException e) {
            return new ProductLookup.Failed(QueryFailure.retryLater(
                    "store " + StoreNames.PRODUCTS + " partition " + partition + " closed during a read: "
                            + e.getMessage()));
        }
        if (row == null) {
            return ProductLookup.ABSENT;
        }
        if (ProductRow.isDeletedRow(row)) {
            return new ProductLookup.Deleted(ProductRow.versionOf(row));
        }
        return new ProductLookup.Found(ProductRow.versionOf(row), ProductRow.servingJson(row));
    }

    /** The partition's store, or the {@link QueryFailure} saying why it cannot be read here. */
    private Object storeFor(int partition) {
        try {
            return handles.<Bytes>active(StoreNames.PRODUCTS, partition);
        } catch (InvalidStateStorePartitionException e) {
            return QueryFailure.notHostedHere("store " + StoreNames.PRODUCTS + " partition " + partition
                    + " is not hosted by this instance");
        } catch (InvalidStateStoreException | IllegalStateException e) {
            // Not started, rebalancing, restoring, migrated or shutting down: the data may come back here.
            return QueryFailure.retryLater("store " + StoreNames.PRODUCTS + " partition " + partition
                    + " cannot be queried now (" + streams.state() + "): " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static ReadOnlyKeyValueStore<Bytes, byte[]> castStore(Object store) {
        return (ReadOnlyKeyValueStore<Bytes, byte[]>) store;
    }
}
