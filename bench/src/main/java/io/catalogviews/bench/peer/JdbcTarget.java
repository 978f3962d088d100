package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.load.Checks;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.Spec;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL through JDBC from the load threads, which share one {@link PgPool} (sized for the machine, as an
 * application server's pool would be): the same queries as the HTTP classes. Each answer is rendered from the rows
 * into the body PostgreSQL's HTTP front would write ({@link PgAnswers}) and checked like an HTTP answer, bytes
 * first, so every target's answers cost the client the same and the JSON documents are checked here too.
 */
public final class JdbcTarget implements Target, AutoCloseable {

    private final long pid;
    private final PgPool pool;

    /** @param poolSize sessions the load threads share (changed later by the tuning, {@link #pool()}) */
    public JdbcTarget(String jdbcUrl, long pid, int poolSize) {
        this.pid = pid;
        this.pool = new PgPool(jdbcUrl, poolSize);
    }

    @Override
    public String name() {
        return "postgres-jdbc";
    }

    @Override
    public long[] pids() {
        return new long[]{pid};
    }

    /** The shared sessions: their number and plan-cache modes. */
    public PgPool pool() {
        return pool;
    }

    @Override
    public Client open(Checks checks) {
        return new Client() {
            @Override
            public Outcome call(Query query) {
                byte[] body;
                try {
                    body = pool.with((s, plans) -> answer(s, plans, checks.model(), query.spec()))
                            .getBytes(StandardCharsets.UTF_8);
                } catch (SQLException | RuntimeException e) {
                    return new Outcome(Kind.ERROR, 0, e.getClass().getSimpleName() + ": " + e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new Outcome(Kind.ERROR, 0, "interrupted");
                }
                return checks.body(query, body);
            }

            @Override
            public void close() {
                // the sessions belong to the pool
            }
        };
    }

    /** The body PostgreSQL's HTTP front would answer to {@code spec}. */
    static String answer(PgSession s, PgPlans plans, CatalogModel model, Spec spec) throws SQLException {
        if (spec instanceof Spec.GetById g) {
            PgSession.Row row = s.byId(SyntheticCatalog.productId(g.product()), plans);
            return row == null ? "{\"error\":{\"code\":\"not_found\"}}" : row.doc();
        }
        if (spec instanceof Spec.Batch b) {
            List<String> ids = new ArrayList<>(b.products().length);
            for (int i : b.products()) {
                ids.add(SyntheticCatalog.productId(i));
            }
            return PgAnswers.batch(ids, s.batch(ids, plans));
        }
        if (spec instanceof Spec.Page p) {
            Long afterValue = afterValue(p, model);
            String afterId = p.after() < 0 ? null : SyntheticCatalog.productId(p.after());
            return PgAnswers.page(s.page(p.category(), p.brand(), p.minPrice(), p.maxPrice(), p.sort(), p.limit(),
                    afterValue, afterId, plans), p.limit(), p.sort());
        }
        if (spec instanceof Spec.Facets f) {
            return PgAnswers.facets(s.facets(f.category(), null, null, null, null, 100, plans));
        }
        throw new IllegalArgumentException("no JDBC form of " + spec);
    }

    /** The statement {@link #answer} runs for {@code spec} (the one {@link PgExplain} explains for its class). */
    public static PgQuery queryOf(Spec spec, CatalogModel model) {
        if (spec instanceof Spec.GetById g) {
            return PgQuery.byId(SyntheticCatalog.productId(g.product()));
        }
        if (spec instanceof Spec.Batch b) {
            return PgQuery.batch(java.util.Arrays.stream(b.products()).mapToObj(SyntheticCatalog::productId).toList());
        }
        if (spec instanceof Spec.Page p) {
            String afterId = p.after() < 0 ? null : SyntheticCatalog.productId(p.after());
            return PgQuery.page(p.category(), p.brand(), p.minPrice(), p.maxPrice(), p.sort(), p.limit(),
                    afterValue(p, model), afterId);
        }
        if (spec instanceof Spec.Facets f) {
            return PgQuery.facets(f.category());
        }
        throw new IllegalArgumentException("no JDBC form of " + spec);
    }

    /** The sort value of the item before a page (its cursor), or null for a first page. */
    private static Long afterValue(Spec.Page p, CatalogModel model) {
        if (p.after() < 0) {
            return null;
        }
        return p.sort() == CatalogModel.Sort.UPDATED_DESC ? model.updatedAt(p.after()) : model.price(p.after());
    }

    @Override
    public void close() {
        pool.close();
    }
}
