package io.catalogviews.views.routing;

/** Finds which instance owns a product id. Reads Kafka Streams metadata; never calls other instances. */
public interface KeyOwners {

    /** This instance, as the others reach it. */
    Instance self();

    /** The current owner of {@code productId}'s partition of the product view. */
    Ownership ownerOfProduct(String productId);

    /**
     * The active instance of every partition of a store (for scatter-gather over all partitions); a partition
     * missing from the map has no active instance now (rebalancing). Keys are 0..{@link #partitions()}-1.
     */
    java.util.Map<Integer, Instance> activeOwners(String storeName);

    /** Partition count of the product view (the input topic's). */
    int partitions();
}
