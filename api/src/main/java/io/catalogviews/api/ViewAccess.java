package io.catalogviews.api;

import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.KeyOwners;

/**
 * Everything the HTTP layer reads from the views, through query interfaces only: who owns what, the local
 * product and listing reads, and the cluster's membership. No Kafka Streams or RocksDB type crosses it.
 */
public record ViewAccess(KeyOwners owners, ProductQueries products, ListingQueries listings, ClusterView cluster) {
}
