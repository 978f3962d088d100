package io.catalogviews.views;

/**
 * Names of the state stores that hold the views. They are part of the changelog topic names
 * ({@code <application.id>-<store>-changelog}), so renaming one loses its state: add, never rename.
 */
public final class StoreNames {

    /**
     * Product by id, in the input's partitions: {@link io.catalogviews.views.product.ProductRow} values keyed by the
     * product id (UTF-8), and beside them, derived from those rows and never logged, the whole-catalog sorted
     * indexes and facet counters of the partition and those of each category of its products (see {@link
     * io.catalogviews.views.index.ViewLayout}).
     */
    public static final String PRODUCTS = "product-view";

    /**
     * Deletion markers by expiry order: key = 8-byte big-endian deletion time (ms) followed by the
     * product id; value = empty. Lets the topology purge markers older than the retention without
     * scanning the whole product view.
     */
    public static final String PRODUCT_DELETIONS = "product-deletions";

    // Retired: "category-listings" (and the "category-changes" repartition topic) held the category listings until
    // they moved into the product view's category scopes; a deployment that ran such a release keeps their unused
    // topics (docs/operations.md says how to delete them). Never reuse the name: a store of it would read that
    // changelog.

    private StoreNames() {
    }
}
