package io.catalogviews.views.routing;

/** Finds which instance owns a product id. Reads Kafka Streams metadata; never calls other instances. */
public interface KeyOwners {

    /** This instance, as the others reach it. */
    Instance self();

    /** The current owner of {@code productId}'s partition of the product view. */
    Ownership ownerOfProduct(String productId);
}
