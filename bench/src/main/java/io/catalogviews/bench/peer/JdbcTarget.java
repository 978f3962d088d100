package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.Checks;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.Spec;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL through JDBC from the load threads, one connection each: the same queries as the HTTP classes,
 * checked against the model by ids, order, versions and (for facets) every number; the JSON documents the rows
 * carry are checked where PostgreSQL answers over HTTP.
 */
public final class JdbcTarget implements Target {

    private final String jdbcUrl;
    private final long pid;

    public JdbcTarget(String jdbcUrl, long pid) {
        this.jdbcUrl = jdbcUrl;
        this.pid = pid;
    }

    @Override
    public String name() {
        return "postgres-jdbc";
    }

    @Override
    public long[] pids() {
        return new long[]{pid};
    }

    @Override
    public Client open(Checks checks) throws SQLException {
        PgSession session = new PgSession(jdbcUrl);
        CatalogModel model = checks.model();
        return new Client() {
            @Override
            public Outcome call(Query query) {
                try {
                    return execute(session, model, query.spec());
                } catch (SQLException | RuntimeException e) {
                    return new Outcome(Kind.ERROR, 0, e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }

    static Outcome execute(PgSession s, CatalogModel model, Spec spec) throws SQLException {
        if (spec instanceof Spec.GetById g) {
            PgSession.Row row = s.byId(SyntheticCatalog.productId(g.product()));
            if (row == null || row.version() != model.version(g.product())) {
                return wrong("product " + g.product() + ": " + (row == null ? "absent" : "version " + row.version()));
            }
            return Outcome.ok(row.doc().length());
        }
        if (spec instanceof Spec.Batch b) {
            List<String> ids = new ArrayList<>(b.products().length);
            for (int i : b.products()) {
                ids.add(SyntheticCatalog.productId(i));
            }
            List<PgSession.Row> rows = s.batch(ids);
            Map<String, PgSession.Row> byId = new HashMap<>();
            int bytes = 0;
            for (PgSession.Row r : rows) {
                byId.put(r.id(), r);
                bytes += r.doc().length();
            }
            for (int i : b.products()) {
                PgSession.Row r = byId.get(SyntheticCatalog.productId(i));
                if (r == null || r.version() != model.version(i)) {
                    return wrong("batch: product " + i + (r == null ? " absent" : " at version " + r.version()));
                }
            }
            return Outcome.ok(bytes);
        }
        if (spec instanceof Spec.Page p) {
            boolean byPrice = p.sort() == CatalogModel.Sort.PRICE;
            Long afterValue = p.after() < 0 ? null : byPrice ? model.price(p.after()) : model.updatedAt(p.after());
            String afterId = p.after() < 0 ? null : SyntheticCatalog.productId(p.after());
            List<PgSession.Row> rows = s.page(p.category(), p.brand(), p.minPrice(), p.maxPrice(), byPrice, p.limit(),
                    afterValue, afterId);
            int n = Math.min(rows.size(), p.limit());
            if (n != p.expected().length || (rows.size() > p.limit()) != p.more()) {
                return wrong("page of " + n + " rows (more: " + (rows.size() > p.limit()) + "), expected "
                        + p.expected().length + " (more: " + p.more() + ")");
            }
            int bytes = 0;
            for (int k = 0; k < n; k++) {
                PgSession.Row r = rows.get(k);
                int expected = p.expected()[k];
                if (!r.id().equals(SyntheticCatalog.productId(expected)) || r.version() != model.version(expected)) {
                    return wrong("row " + k + " is " + r.id() + "@" + r.version() + ", expected "
                            + SyntheticCatalog.productId(expected) + "@" + model.version(expected));
                }
                bytes += r.doc().length();
            }
            return Outcome.ok(bytes);
        }
        if (spec instanceof Spec.Facets f) {
            PgSession.FacetRow row = s.facets(f.category(), 100);
            String json = PostgresHttpServer.facetsJson(row);
            String d = JsonCheck.difference(readTree(f.expectedJson()), readTree(json));
            return d == null ? Outcome.ok(json.length()) : wrong(d);
        }
        throw new IllegalArgumentException("no JDBC form of " + spec);
    }

    private static com.fasterxml.jackson.databind.JsonNode readTree(String json) {
        try {
            return JsonCheck.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Outcome wrong(String detail) {
        return new Outcome(Kind.WRONG, 0, detail);
    }
}
