package io.catalogviews.bench.peer;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One JDBC connection to the PostgreSQL peer with its prepared statements (pgjdbc turns a reused statement into a
 * server-side prepared one), and the SQL of every query class: the queries a DBA would write against the schema
 * of {@link PgSchema}, keyset pagination for cursors. Not thread-safe.
 */
public final class PgSession implements AutoCloseable {

    /** One product row as the queries return it. */
    public record Row(String id, long version, String doc, long priceCents, long updatedAt) {
    }

    /** Facet numbers of one category. */
    public record FacetRow(long total, long inStock, Long min, Long max, List<Map.Entry<String, Long>> brands) {
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    public PgSession(String jdbcUrl) throws SQLException {
        this.connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
        connection.setAutoCommit(true);
    }

    public Connection connection() {
        return connection;
    }

    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    public Row byId(String id) throws SQLException {
        PreparedStatement ps = prepare("SELECT id, version, doc, price_cents, updated_at FROM products WHERE id = ?");
        ps.setString(1, id);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? row(rs) : null;
        }
    }

    public List<Row> batch(List<String> ids) throws SQLException {
        PreparedStatement ps = prepare(
                "SELECT id, version, doc, price_cents, updated_at FROM products WHERE id = ANY(?)");
        Array array = connection.createArrayOf("text", ids.toArray());
        ps.setArray(1, array);
        List<Row> rows = new ArrayList<>(ids.size());
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(row(rs));
            }
        }
        return rows;
    }

    /**
     * One page (up to {@code limit + 1} rows, the last one only telling that more match).
     *
     * @param sortByPrice price ascending, else {@code updatedAt} descending; ties by id ascending
     * @param afterValue  with {@code afterId}: the sort value and id of the last row of the previous page
     */
    public List<Row> page(String category, String brand, Long minPrice, Long maxPrice, boolean sortByPrice,
                          int limit, Long afterValue, String afterId) throws SQLException {
        String table = category == null ? "products p" : "product_categories c JOIN products p ON p.id = c.id";
        String t = category == null ? "p" : "c";
        StringBuilder sql = new StringBuilder("SELECT p.id, p.version, p.doc, p.price_cents, p.updated_at FROM ")
                .append(table).append(" WHERE true");
        if (category != null) {
            sql.append(" AND c.category = ?");
        }
        if (brand != null) {
            sql.append(" AND ").append(t).append(".brand = ?");
        }
        if (minPrice != null) {
            sql.append(" AND ").append(t).append(".price_cents >= ?");
        }
        if (maxPrice != null) {
            sql.append(" AND ").append(t).append(".price_cents <= ?");
        }
        if (afterId != null) {
            if (sortByPrice) {
                sql.append(" AND (").append(t).append(".price_cents, ").append(t).append(".id) > (?, ?)");
            } else {
                sql.append(" AND (").append(t).append(".updated_at < ? OR (").append(t).append(".updated_at = ? AND ")
                        .append(t).append(".id > ?))");
            }
        }
        sql.append(sortByPrice ? " ORDER BY " + t + ".price_cents, " + t + ".id"
                : " ORDER BY " + t + ".updated_at DESC, " + t + ".id").append(" LIMIT ?");
        PreparedStatement ps = prepare(sql.toString());
        int k = 1;
        if (category != null) {
            ps.setString(k++, category);
        }
        if (brand != null) {
            ps.setString(k++, brand);
        }
        if (minPrice != null) {
            ps.setLong(k++, minPrice);
        }
        if (maxPrice != null) {
            ps.setLong(k++, maxPrice);
        }
        if (afterId != null) {
            ps.setLong(k++, afterValue);
            if (!sortByPrice) {
                ps.setLong(k++, afterValue);
            }
            ps.setString(k++, afterId);
        }
        ps.setInt(k, limit + 1);
        List<Row> rows = new ArrayList<>(limit + 1);
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(row(rs));
            }
        }
        return rows;
    }

    public FacetRow facets(String category, int brandLimit) throws SQLException {
        PreparedStatement totals = prepare("SELECT count(*), count(*) FILTER (WHERE stock > 0), min(price_cents), "
                + "max(price_cents) FROM product_categories WHERE category = ?");
        totals.setString(1, category);
        long total;
        long inStock;
        Long min;
        Long max;
        try (ResultSet rs = totals.executeQuery()) {
            rs.next();
            total = rs.getLong(1);
            inStock = rs.getLong(2);
            min = rs.getObject(3) == null ? null : rs.getLong(3);
            max = rs.getObject(4) == null ? null : rs.getLong(4);
        }
        PreparedStatement brands = prepare("SELECT brand, count(*) AS n FROM product_categories WHERE category = ? "
                + "GROUP BY brand ORDER BY n DESC, brand LIMIT ?");
        brands.setString(1, category);
        brands.setInt(2, brandLimit);
        List<Map.Entry<String, Long>> list = new ArrayList<>();
        try (ResultSet rs = brands.executeQuery()) {
            while (rs.next()) {
                list.add(Map.entry(rs.getString(1), rs.getLong(2)));
            }
        }
        return new FacetRow(total, inStock, min, max, list);
    }

    private static Row row(ResultSet rs) throws SQLException {
        return new Row(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5));
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing at the end of a run
        }
    }
}
