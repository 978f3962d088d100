package io.catalogviews.api;

import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.query.ProductCommits;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.KeyOwners;

/**
 * Everything the HTTP layer reads from the views, through query interfaces only: who owns what, the local
 * product and listing reads, the cluster's membership, and when product rows are committed (to wake waits). No
 * Kafka Streams or RocksDB type crosses it.
 */
public record ViewAccess(KeyOwners owners, ProductQueries products, ListingQueries listings, ClusterView cluster,
                         ProductCommits commits) {

    /** Views whose commits nobody is told of: waits end at their deadline or on their first read. */
    public ViewAccess(KeyOwners owners, ProductQueries products, ListingQueries listings, ClusterView cluster) {
        this(owners, products, listings, cluster, ProductCommits.NONE);
    }
}
