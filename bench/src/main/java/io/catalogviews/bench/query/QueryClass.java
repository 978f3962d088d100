package io.catalogviews.bench.query;

/** The query classes of issue 5, in the order the harness runs and reports them. */
public enum QueryClass {
    GET_BY_ID("get-by-id", "get by id"),
    BATCH_100("batch-100", "POST batch of 100 ids"),
    CATEGORY_PRICE("category-price", "category page of 60, brand + price range, sort=price"),
    CATEGORY_UPDATED("category-updated", "category page of 60, brand + price range, sort=-updatedAt"),
    PAGE_ONE("page-1", "page 1 of a big category, sort=price, 60 (deep-page baseline)"),
    DEEP_PAGE("deep-page", "page 1000 of the same query (cursor), 60"),
    FACETS("facets", "facets of a category"),
    CATALOG_PAGE("catalog-page", "whole-catalog page of 60, minPrice, sort=price"),
    CATEGORY_PRICE_DESC("category-price-desc", "category page of 60, brand + price range, sort=-price");

    public final String key;
    public final String description;

    QueryClass(String key, String description) {
        this.key = key;
        this.description = description;
    }

    public static QueryClass byKey(String key) {
        for (QueryClass c : values()) {
            if (c.key.equals(key) || c.name().equalsIgnoreCase(key)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown query class " + key);
    }
}
