package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;

/** The refusals that GET by id and the batch share. */
final class ProductViewErrors {

    private ProductViewErrors() {
    }

    static ApiException partitionUnavailable(int partition) {
        return ApiException.unavailable("partition " + partition + " of the product view has no instance that "
                + "can answer now (rebalancing or restoring); retry shortly", 1);
    }
}
