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

    /**
     * Whole-catalog sorted indexes, in the product partitions (same task and transaction as the product view),
     * one entry set per product: see {@link io.catalogviews.views.index.IndexKeys} with no category scope.
     */
    public static final String CATALOG_INDEX = "catalog-index";

    /** Whole-catalog facet counters per product partition: see {@link io.catalogviews.views.index.FacetCounters}. */
    public static final String CATALOG_FACETS = "catalog-facets";

    /**
     * Category rows, in the category partitions (keyed by category through the repartition topic): key =
     * category 0x00 product id, value = {@link io.catalogviews.views.index.ListingEntry}.
     */
    public static final String CATEGORY_ROWS = "category-rows";

    /** Category sorted indexes: see {@link io.catalogviews.views.index.IndexKeys}. */
    public static final String CATEGORY_INDEX = "category-index";

    /** Category facet counters: see {@link io.catalogviews.views.index.FacetCounters}. */
    public static final String CATEGORY_FACETS = "category-facets";

    /** Name of the repartition step that re-keys category changes by category. */
    public static final String CATEGORY_CHANGES = "category-changes";

    private StoreNames() {
    }
}
