package io.catalogviews.api.routing;

import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;

import java.util.List;

/**
 * A read of this instance's own copy of the data, active or standby, with how many changelog records that copy
 * is behind (-1 when unknown): what a standby answers with ({@link StaleReads}).
 */
public record ReplicaCopy<T>(LocalRead<T> read, long lagRecords) {

    public static ReplicaCopy<ProductLookup> of(ProductQueries.ReplicaRead read) {
        return new ReplicaCopy<>(LocalRead.of(read.lookup()), read.lagRecords());
    }

    public static ReplicaCopy<List<ProductLookup>> of(ProductQueries.ReplicaBatch read) {
        return new ReplicaCopy<>(LocalRead.ofAll(read.lookups()), read.lagRecords());
    }
}
