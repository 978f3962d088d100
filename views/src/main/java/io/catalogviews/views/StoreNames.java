package io.catalogviews.views;

/**
 * Names of the state stores that hold the views. They are part of the changelog topic names
 * ({@code <application.id>-<store>-changelog}), so renaming one loses its state: add, never rename.
 */
public final class StoreNames {

    /** Product by id: {@link io.catalogviews.views.product.ProductRow} values keyed by the product id. */
    public static final String PRODUCTS = "product-view";

    /**
     * Deletion markers by expiry order: key = 8-byte big-endian deletion time (ms) followed by the
     * product id; value = empty. Lets the topology purge markers older than the retention without
     * scanning the whole product view.
     */
    public static final String PRODUCT_DELETIONS = "product-deletions";

    private StoreNames() {
    }
}
