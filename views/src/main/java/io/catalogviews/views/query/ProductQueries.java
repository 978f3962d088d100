package io.catalogviews.views.query;

import java.util.List;

/**
 * Local reads of the product view: only the partitions this instance hosts as active. Routing to the
 * owner of a key is the caller's job (see {@link io.catalogviews.views.routing.KeyOwners}).
 */
public interface ProductQueries {

    /** Reads one product from the local partition its id belongs to. Never throws for a store failure. */
    ProductLookup get(String id);

    /**
     * Reads several products, each from its local partition; one result per id, in the order given.
     * A partition that cannot be read gives a {@link ProductLookup.Failed} for each of its ids.
     */
    List<ProductLookup> getAll(List<String> ids);

    /**
     * Reads one product from any local copy of its partition, active or standby (for failover reads while the
     * active owner cannot answer), with how many changelog records that copy is behind.
     */
    ReplicaRead getFromAnyReplica(String id);

    /**
     * Reads several products, each from any local copy of its partition, active or standby (failover reads of
     * a batch); one lookup per id, in the order given, with the largest lag of the partitions read.
     */
    ReplicaBatch getAllFromAnyReplica(List<String> ids);

    /** A read from a replica that may lag: {@code lagRecords} is -1 when unknown. */
    record ReplicaRead(ProductLookup lookup, long lagRecords) {
    }

    /**
     * Reads from replicas that may lag: {@code lagRecords} is the largest lag of the partitions read, -1 when
     * any of them is unknown. A partition without a readable local copy gives {@link ProductLookup.Failed}.
     */
    record ReplicaBatch(List<ProductLookup> lookups, long lagRecords) {
    }
}
