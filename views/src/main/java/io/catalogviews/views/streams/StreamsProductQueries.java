package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.store.MultiGetStore;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * {@link ProductQueries} over the local partitions of the product view, through Kafka Streams interactive
 * queries. {@link #get} and {@link #getAll} read only active tasks: a standby or restoring partition answers
 * {@link QueryFailure}; the {@code FromAnyReplica} reads (failover) also read standby and restoring copies.
 */
public final class StreamsProductQueries implements ProductQueries {

    private final KafkaStreams streams;
    private final int partitions;

    /**
     * @param partitions the partition count of the input topic, which the product view mirrors
     */
    public StreamsProductQueries(KafkaStreams streams, int partitions) {
        this.streams = streams;
        this.partitions = partitions;
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

    /** Ids grouped by partition, and each partition's ids read in one call to its store. */
    @Override
    public List<ProductLookup> getAll(List<String> ids) {
        return readGrouped(ids, this::storeFor);
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
        Set<Integer> read = new TreeSet<>();
        for (String id : ids) {
            read.add(KeyPartitioner.partitionOf(id, partitions));
        }
        List<ProductLookup> results = readGrouped(ids, this::anyReplicaStoreFor);
        return new ReplicaBatch(results, LocalLags.max(lags, read));
    }

    /** Any local copy of the partition's store (active, restoring or standby), or why there is none. */
    private Object anyReplicaStoreFor(int partition) {
        try {
            return streams.store(StoreQueryParameters
                    .fromNameAndType(StoreNames.PRODUCTS, new PinnedStoreType())
                    .withPartition(partition).enableStaleStores());
        } catch (InvalidStateStoreException | IllegalStateException e) {
            return QueryFailure.retryLater("store " + StoreNames.PRODUCTS + " partition " + partition
                    + " has no local replica to read now: " + e.getMessage());
        }
    }

    /**
     * The lookups of {@code ids}, in their order: the ids of each partition are read with one multi-key read of its
     * store (one RocksDB call instead of one per id); a partition that cannot be read fails its ids only.
     */
    private List<ProductLookup> readGrouped(List<String> ids, IntFunction<Object> storeOf) {
        ProductLookup[] results = new ProductLookup[ids.size()];
        Map<Integer, List<Integer>> byPartition = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            if (!ProductId.isValid(id)) {
                results[i] = ProductLookup.ABSENT; // an id outside the grammar is never held (nor read as a key)
            } else {
                byPartition.computeIfAbsent(KeyPartitioner.partitionOf(id, partitions), p -> new ArrayList<>()).add(i);
            }
        }
        byPartition.forEach((partition, positions) -> {
            Object store = storeOf.apply(partition);
            if (store instanceof QueryFailure failure) {
                positions.forEach(i -> results[i] = new ProductLookup.Failed(failure));
                return;
            }
            List<Bytes> keys = new ArrayList<>(positions.size());
            positions.forEach(i -> keys.add(RowKeys.product(new ProductId(ids.get(i)))));
            List<byte[]> rows;
            try {
                rows = MultiGetStore.getAll(castStore(store), keys);
            } catch (InvalidStateStoreException | IllegalStateException e) {
                ProductLookup failed = unreadable(partition, e);
                positions.forEach(i -> results[i] = failed);
                return;
            }
            for (int k = 0; k < positions.size(); k++) {
                results[positions.get(k)] = lookupOf(rows.get(k));
            }
        });
        return Arrays.asList(results);
    }

    private static ProductLookup read(ReadOnlyKeyValueStore<Bytes, byte[]> store, int partition, String id) {
        ProductId checked = ProductId.parse(id).orElse(null);
        if (checked == null) {
            return ProductLookup.ABSENT; // an id outside the grammar is never held (and never read as a key)
        }
        try {
            return lookupOf(store.get(RowKeys.product(checked)));
        } catch (InvalidStateStoreException | IllegalStateException e) {
            return unreadable(partition, e);
        }
    }

    private static ProductLookup unreadable(int partition, RuntimeException e) {
        if (e instanceof InvalidStateStorePartitionException) {
            // Raised when the handle is made (PinnedStoreType); kept for a standard handle.
            return new ProductLookup.Failed(QueryFailure.notHostedHere("store " + StoreNames.PRODUCTS
                    + " partition " + partition + " is not hosted by this instance (or is still restoring)"));
        }
        return new ProductLookup.Failed(QueryFailure.retryLater(
                "store " + StoreNames.PRODUCTS + " partition " + partition + " closed during a read: "
                        + e.getMessage()));
    }

    private static ProductLookup lookupOf(byte[] row) {
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
            return streams.store(StoreQueryParameters
                    .fromNameAndType(StoreNames.PRODUCTS, new PinnedStoreType())
                    .withPartition(partition));
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
