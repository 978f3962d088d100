package io.catalogviews.views;

/**
 * Names of the state stores that hold the views. They are part of the changelog topic names
 * ({@code <application.id>-<store>-changelog}), so renaming one loses its state: add, never rename.
 */
public final class StoreNames {

    /**
     * Product by id, in the input's partitions: {@link io.catalogviews.views.product.ProductRow} values keyed by the
     * product id (UTF-8), and beside them, derived from those rows and never logged, the whole-catalog sorted
     * indexes and facet counters of the partition (see {@link io.catalogviews.views.index.ViewLayout}).
     */
    public static final String PRODUCTS = "product-view";

    /**
     * Deletion markers by expiry order: key = 8-byte big-endian deletion time (ms) followed by the
     * product id; value = empty. Lets the topology purge markers older than the retention without
     * scanning the whole product view.
     */
    public static final String PRODUCT_DELETIONS = "product-deletions";

    /**
     * Category listings, in the category partitions (keyed by category through the repartition topic): rows with
     * key = category 0x00 product id and value = {@link io.catalogviews.views.index.ListingEntry}, and beside them,
     * derived from the rows and never logged, the category's sorted indexes and facet counters (see
     * {@link io.catalogviews.views.index.ViewLayout}). Replaces the category-rows, category-index and
     * category-facets stores of the first layout, whose every index entry went to a changelog.
     */
    public static final String CATEGORY_LISTINGS = "category-listings";

    /** Name of the repartition step that re-keys category changes by category. */
    public static final String CATEGORY_CHANGES = "category-changes";

    private StoreNames() {
    }
}
