package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;

import java.util.ArrayList;
import java.util.List;

/**
 * One SQL statement of the PostgreSQL peer with its parameters ({@code ?} placeholders; a {@code String[]} is bound as
 * a {@code text[]}), and the query class it serves, whose plan-cache mode applies to it ({@link PgPlans}). The same
 * value is executed by {@link PgSession} and explained by {@link PgExplain}, so the plans recorded are those of the
 * statements the load runs.
 *
 * <p>The SQL is what a DBA would write against {@link PgSchema}: keyset pagination for cursors, listing queries that
 * filter and order inside one covering index and fetch only the page's rows from {@code products}, and facets from
 * the counts the ingest maintains ({@code category_brand_counts}) unless a filter narrows them.
 */
public record PgQuery(String queryClass, String sql, List<Object> params) {

    public static PgQuery byId(String id) {
        return new PgQuery("get-by-id", "SELECT id, version, doc, price_cents, updated_at FROM products WHERE id = ?",
                List.of(id));
    }

    public static PgQuery batch(List<String> ids) {
        return new PgQuery("batch-100",
                "SELECT id, version, doc, price_cents, updated_at FROM products WHERE id = ANY(?)",
                List.of((Object) ids.toArray(new String[0])));
    }

    /**
     * One page: up to {@code limit + 1} rows, the last one only telling that more match.
     *
     * @param sort        price ascending, {@code updatedAt} descending or price descending; ties by id ascending
     * @param afterValue  with {@code afterId}: the sort value and id of the last row of the previous page
     */
    public static PgQuery page(String category, String brand, Long minPrice, Long maxPrice, CatalogModel.Sort sort,
                               int limit, Long afterValue, String afterId) {
        String table = category == null ? "products p" : "product_categories c JOIN products p ON p.id = c.id";
        String t = category == null ? "p" : "c";
        StringBuilder sql = new StringBuilder("SELECT p.id, p.version, p.doc, p.price_cents, p.updated_at FROM ")
                .append(table).append(" WHERE true");
        List<Object> params = new ArrayList<>();
        if (category != null) {
            sql.append(" AND c.category = ?");
            params.add(category);
        }
        if (brand != null) {
            sql.append(" AND ").append(t).append(".brand = ?");
            params.add(brand);
        }
        if (minPrice != null) {
            sql.append(" AND ").append(t).append(".price_cents >= ?");
            params.add(minPrice);
        }
        if (maxPrice != null) {
            sql.append(" AND ").append(t).append(".price_cents <= ?");
            params.add(maxPrice);
        }
        if (afterId != null) {
            if (sort == CatalogModel.Sort.PRICE) {
                sql.append(" AND (").append(t).append(".price_cents, ").append(t).append(".id) > (?, ?)");
                params.add(afterValue);
            } else {
                String column = sort == CatalogModel.Sort.PRICE_DESC ? ".price_cents" : ".updated_at";
                sql.append(" AND (").append(t).append(column).append(" < ? OR (").append(t).append(column)
                        .append(" = ? AND ").append(t).append(".id > ?))");
                params.add(afterValue);
                params.add(afterValue);
            }
            params.add(afterId);
        }
        sql.append(switch (sort) {
            case PRICE -> " ORDER BY " + t + ".price_cents, " + t + ".id";
            case UPDATED_DESC -> " ORDER BY " + t + ".updated_at DESC, " + t + ".id";
            case PRICE_DESC -> " ORDER BY " + t + ".price_cents DESC, " + t + ".id";
        }).append(" LIMIT ?");
        params.add(limit + 1);
        return new PgQuery(pageClass(category, brand, sort, afterId != null), sql.toString(), params);
    }

    /** The bench's query class a page belongs to (its plan-cache mode is chosen per class). */
    static String pageClass(String category, String brand, CatalogModel.Sort sort, boolean deep) {
        if (category == null) {
            return "catalog-page";
        }
        if (brand != null) {
            return switch (sort) {
                case PRICE -> "category-price";
                case UPDATED_DESC -> "category-updated";
                case PRICE_DESC -> "category-price-desc";
            };
        }
        return deep ? "deep-page" : "page-1";
    }

    /**
     * The facets of a category without other filters, from the maintained counts: one row per brand with products
     * (count, in stock), and the price bounds, which the {@code (category, price_cents, id)} index answers with one
     * probe at each end.
     */
    public static PgQuery facets(String category) {
        return new PgQuery("facets", "SELECT b.brand, b.products, b.in_stock, "
                + "(SELECT min(price_cents) FROM product_categories WHERE category = ?), "
                + "(SELECT max(price_cents) FROM product_categories WHERE category = ?) "
                + "FROM category_brand_counts b WHERE b.category = ? AND b.products > 0", List.of(category, category,
                category));
    }

    /**
     * The facets of a category narrowed by filters: a GROUP BY brand over the rows that match, which the covering
     * {@code (category, price_cents, id) INCLUDE (brand, stock)} index answers without reading the table.
     */
    public static PgQuery filteredFacets(String category, List<String> brands, Long minPrice, Long maxPrice,
                                         Boolean inStock) {
        StringBuilder sql = new StringBuilder("SELECT brand, count(*), count(*) FILTER (WHERE stock > 0), "
                + "min(price_cents), max(price_cents) FROM product_categories WHERE category = ?");
        List<Object> params = new ArrayList<>();
        params.add(category);
        if (brands != null && !brands.isEmpty()) {
            sql.append(" AND brand = ANY(?)");
            params.add(brands.toArray(new String[0]));
        }
        if (minPrice != null) {
            sql.append(" AND price_cents >= ?");
            params.add(minPrice);
        }
        if (maxPrice != null) {
            sql.append(" AND price_cents <= ?");
            params.add(maxPrice);
        }
        if (inStock != null) {
            sql.append(inStock ? " AND stock > 0" : " AND stock = 0");
        }
        return new PgQuery("facets", sql.append(" GROUP BY brand").toString(), params);
    }
}
