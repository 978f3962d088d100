package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One JDBC connection to the PostgreSQL peer with its prepared statements (pgjdbc turns a statement used five times
 * into a server-side prepared one, whose plans PostgreSQL caches) and the plan-cache mode of each query class
 * ({@link PgPlans}, set on the session only when the next statement's class needs another one). Runs the
 * {@link PgQuery} statements. Not thread-safe.
 */
public final class PgSession implements AutoCloseable {

    /** One product row as the queries return it. */
    public record Row(String id, long version, String doc, long priceCents, long updatedAt) {
    }

    /** Facet numbers of one category (brands by count descending, then name). */
    public record FacetRow(long total, long inStock, Long min, Long max, List<Map.Entry<String, Long>> brands) {
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private String planMode = PgPlans.AUTO;

    public PgSession(String jdbcUrl) throws SQLException {
        this.connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
        connection.setAutoCommit(true);
    }

    public Connection connection() {
        return connection;
    }

    public Row byId(String id, PgPlans plans) throws SQLException {
        List<Row> rows = rows(PgQuery.byId(id), plans);
        return rows.isEmpty() ? null : rows.get(0);
    }

    public List<Row> batch(List<String> ids, PgPlans plans) throws SQLException {
        return rows(PgQuery.batch(ids), plans);
    }

    /** One page: up to {@code limit + 1} rows ({@link PgQuery#page}). */
    public List<Row> page(String category, String brand, Long minPrice, Long maxPrice, CatalogModel.Sort sort,
                          int limit, Long afterValue, String afterId, PgPlans plans) throws SQLException {
        return rows(PgQuery.page(category, brand, minPrice, maxPrice, sort, limit, afterValue, afterId), plans);
    }

    /** Facets of a category: from the maintained counts without filters, by a GROUP BY with them. */
    public FacetRow facets(String category, List<String> brands, Long minPrice, Long maxPrice, Boolean inStock,
                           int brandLimit, PgPlans plans) throws SQLException {
        boolean filtered = (brands != null && !brands.isEmpty()) || minPrice != null || maxPrice != null
                || inStock != null;
        PgQuery q = filtered ? PgQuery.filteredFacets(category, brands, minPrice, maxPrice, inStock)
                : PgQuery.facets(category);
        long total = 0;
        long inStockCount = 0;
        Long min = null;
        Long max = null;
        List<Map.Entry<String, Long>> counts = new ArrayList<>();
        try (ResultSet rs = execute(q, plans)) {
            while (rs.next()) {
                long n = rs.getLong(2);
                counts.add(Map.entry(rs.getString(1), n));
                total += n;
                inStockCount += rs.getLong(3);
                long lo = rs.getLong(4);
                if (!rs.wasNull()) {
                    min = min == null ? lo : Math.min(min, lo);
                }
                long hi = rs.getLong(5);
                if (!rs.wasNull()) {
                    max = max == null ? hi : Math.max(max, hi);
                }
            }
        }
        counts.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return new FacetRow(total, inStockCount, total == 0 ? null : min, total == 0 ? null : max,
                List.copyOf(counts.subList(0, Math.min(brandLimit, counts.size()))));
    }

    /** Executes {@code q} in its class's plan-cache mode; the caller closes the result set. */
    ResultSet execute(PgQuery q, PgPlans plans) throws SQLException {
        usePlanMode(plans.modeOf(q.queryClass()));
        PreparedStatement ps = statements.get(q.sql());
        if (ps == null) {
            ps = connection.prepareStatement(q.sql());
            statements.put(q.sql(), ps);
        }
        int k = 1;
        for (Object p : q.params()) {
            if (p instanceof String[] array) {
                ps.setArray(k++, connection.createArrayOf("text", array));
            } else {
                ps.setObject(k++, p);
            }
        }
        return ps.executeQuery();
    }

    private List<Row> rows(PgQuery q, PgPlans plans) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = execute(q, plans)) {
            while (rs.next()) {
                rows.add(new Row(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5)));
            }
        }
        return rows;
    }

    private void usePlanMode(String mode) throws SQLException {
        if (!mode.equals(planMode)) {
            try (Statement s = connection.createStatement()) {
                s.execute("SET plan_cache_mode = " + mode);
            }
            planMode = mode;
        }
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
