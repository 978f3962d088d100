package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.load.Checks;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.phase.Dirs;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.cli.ProgressBar;
import io.javalin.Javalin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL peer against a real PostgreSQL 15 (bench/scripts/postgres.sh, as the harness starts it): its schema
 * loaded with a small catalog and its changes, then its answers, its maintained facet counts, its plan-cache modes,
 * its explained plans and its HTTP front's tuning route.
 */
@Tag("integration")
@Timeout(600)
class PostgresPeerIT {

    private static final int PRODUCTS = 3_000;
    private static Path work;
    private static PostgresServer server;
    private static CatalogModel model;
    private static Workloads expected;

    @BeforeAll
    static void load() throws Exception {
        work = Path.of("target", "postgres-it-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        Files.createDirectories(work);
        server = PostgresServer.start(work, ChildJvm.freePort(), 64, work.resolve("postgres-script.log"));
        model = new CatalogModel(new SyntheticCatalog(11), PRODUCTS);
        try (PgSession s = new PgSession(server.jdbcUrl())) {
            PgSchema.create(s.connection());
            PgSchema.load(s.connection(), model, PRODUCTS, 4_000, new ProgressBar(
                    new PrintStream(PrintStream.nullOutputStream()), "load", PRODUCTS + 4_000));
        }
        expected = new Workloads(model, 11);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        Dirs.deleteQuietly(work);
    }

    @Test
    void shouldAnswerEveryClassWithTheExpectedBytesWhenAskedThroughJdbc() {
        JdbcTarget target = new JdbcTarget(server.jdbcUrl(), server.pid(), 2);
        SplittableRandom random = new SplittableRandom(3);
        try (target) {
            for (QueryClass c : QueryClass.values()) {
                Query.Workload w = expected.http(c, (first, offset) -> "unused");
                Checks checks = new Checks(model, w.slots());
                try (Target.Client client = target.open(checks)) {
                    for (int k = 0; k < 40; k++) {
                        Target.Outcome o = client.call(w.pick(random));
                        assertThat(o.kind()).as("%s: %s", c.key, o.detail()).isEqualTo(Target.Kind.OK);
                        assertThat(o.parsed()).as("%s answered other bytes than expected", c.key).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void shouldKeepTheFacetCountsEqualToTheRowsWhenChangesMovedStock() throws Exception {
        String rowsNotCounted = "SELECT category, brand, count(*), count(*) FILTER (WHERE stock > 0) "
                + "FROM product_categories GROUP BY 1, 2 EXCEPT "
                + "SELECT category, brand, products, in_stock FROM category_brand_counts WHERE products > 0";
        String countsWithoutRows = "SELECT category, brand, products, in_stock FROM category_brand_counts "
                + "WHERE products > 0 EXCEPT SELECT category, brand, count(*), count(*) FILTER (WHERE stock > 0) "
                + "FROM product_categories GROUP BY 1, 2";
        try (PgSession s = new PgSession(server.jdbcUrl()); Statement st = s.connection().createStatement()) {
            assertThat(count(st, rowsNotCounted)).as("groups of rows the counts miss").isZero();
            assertThat(count(st, countsWithoutRows)).as("counts without such rows").isZero();

            st.execute("BEGIN");
            st.execute("DELETE FROM product_categories WHERE id IN (SELECT id FROM product_categories LIMIT 10)");
            st.execute("UPDATE product_categories SET stock = 0 WHERE id IN "
                    + "(SELECT id FROM product_categories WHERE stock > 0 LIMIT 10)");
            assertThat(count(st, rowsNotCounted)).as("after deletes and stock-outs").isZero();
            assertThat(count(st, countsWithoutRows)).as("after deletes and stock-outs").isZero();
            st.execute("ROLLBACK");
        }
    }

    @Test
    void shouldCountOnlyTheMatchingRowsWhenFacetsAreFiltered() throws Exception {
        String category = model.categoryNames().get(0);
        int c = model.categoryNumber(category);
        int[] members = model.members(c);
        String brand = model.brand(members[0]);
        long lo = 1_000;
        long hi = 50_000;
        long total = 0;
        long inStock = 0;
        for (int i : members) {
            if (model.brand(i).equals(brand) && model.price(i) >= lo && model.price(i) <= hi && model.stock(i) > 0) {
                total++;
                inStock++;
            }
        }
        try (PgSession s = new PgSession(server.jdbcUrl())) {
            PgSession.FacetRow row = s.facets(category, List.of(brand), lo, hi, true, 100, PgPlans.defaults());

            assertThat(row.total()).isEqualTo(total);
            assertThat(row.inStock()).isEqualTo(inStock);
            assertThat(row.brands()).hasSizeLessThanOrEqualTo(1);
        }
    }

    @Test
    void shouldSetThePlanCacheModeOfEachClassWhenItsStatementRuns() throws Exception {
        PgPlans plans = PgPlans.defaults().with("category-price", PgPlans.CUSTOM);
        try (PgSession s = new PgSession(server.jdbcUrl())) {
            s.page(model.categoryNames().get(0), model.brand(0), 0L, 1_000_000L, CatalogModel.Sort.PRICE, 60, null, null, plans);
            assertThat(show(s.connection())).isEqualTo(PgPlans.CUSTOM);

            s.byId(SyntheticCatalog.productId(1), plans);
            assertThat(show(s.connection())).isEqualTo(PgPlans.AUTO);
        }
    }

    @Test
    void shouldExplainOneStatementOfEachClassInItsModeWhenAsked() throws Exception {
        List<PgQuery> queries = new ArrayList<>();
        for (QueryClass c : QueryClass.values()) {
            Spec first = switch (c) {
                case GET_BY_ID -> new Spec.GetById(0);
                case BATCH_100 -> new Spec.Batch(expected.batches().get(0));
                case FACETS -> expected.facets().get(0);
                default -> expected.pages(c).get(0);
            };
            queries.add(JdbcTarget.queryOf(first, model));
        }
        PgPlans plans = PgPlans.defaults().with("category-updated", PgPlans.CUSTOM);

        List<PostgresSetup.Plan> explained = PgExplain.explain(server.jdbcUrl(), plans, queries);

        assertThat(explained).hasSize(QueryClass.values().length);
        for (PostgresSetup.Plan p : explained) {
            assertThat(p.plan()).as("plan of %s", p.queryClass()).anyMatch(line -> line.startsWith("Execution Time"));
        }
        assertThat(explained).filteredOn(p -> p.queryClass().equals("category-updated"))
                .extracting(PostgresSetup.Plan::planCacheMode).containsExactly(PgPlans.CUSTOM);
        assertThat(PgExplain.text(explained)).contains("-- facets (plan_cache_mode = auto)");
    }

    @Test
    void shouldTakeThePoolAndPlansItIsToldWhenItsHttpFrontIsTuned() throws Exception {
        int port = ChildJvm.freePort();
        Javalin front = PostgresHttpServer.start(port, server.jdbcUrl(), 2);
        try (HttpConnection c = new HttpConnection("127.0.0.1", port, 10_000)) {
            byte[] empty = new byte[0];
            HttpConnection.Response tuned = c.exchange(HttpConnection.postJson(
                    "/admin/tuning?pool=4&plans=facets:force_custom_plan", empty), empty);
            HttpConnection.Response product = c.exchange(HttpConnection.get("/v1/products/"
                    + SyntheticCatalog.productId(5)), null);

            assertThat(new String(tuned.body(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"pool\":4,\"plans\":\"facets:force_custom_plan\"}");
            assertThat(new String(product.body(), StandardCharsets.UTF_8)).isEqualTo(model.json(5));
        } finally {
            front.stop();
        }
    }

    private static long count(Statement st, String query) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + query + ") d")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String show(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW plan_cache_mode")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
