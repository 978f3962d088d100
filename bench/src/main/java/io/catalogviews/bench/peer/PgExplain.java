package io.catalogviews.bench.peer;

import io.catalogviews.bench.results.PostgresSetup;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code EXPLAIN (ANALYZE, BUFFERS)} of one representative statement of each query class, as the peer runs it: the
 * statement is prepared on the server and executed five times first, in its class's plan-cache mode, as pgjdbc's
 * server-side prepared statements are, so the plan shown is the one PostgreSQL then keeps (generic or custom).
 */
public final class PgExplain {

    private PgExplain() {
    }

    public static List<PostgresSetup.Plan> explain(String jdbcUrl, PgPlans plans, List<PgQuery> queries)
            throws SQLException {
        List<PostgresSetup.Plan> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
             Statement s = c.createStatement()) {
            int n = 0;
            for (PgQuery q : queries) {
                String mode = plans.modeOf(q.queryClass());
                String name = "bench_explain_" + n++;
                s.execute("SET plan_cache_mode = " + mode);
                s.execute("PREPARE " + name + " AS " + numbered(q.sql()));
                String execute = "EXECUTE " + name + arguments(q.params());
                for (int k = 0; k < 5; k++) {
                    s.execute(execute);
                }
                List<String> plan = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + execute)) {
                    while (rs.next()) {
                        plan.add(rs.getString(1));
                    }
                }
                s.execute("DEALLOCATE " + name);
                out.add(new PostgresSetup.Plan(q.queryClass(), mode, q.sql(),
                        q.params().stream().map(PgExplain::literal).toList(), plan));
            }
            s.execute("RESET plan_cache_mode");
        }
        return out;
    }

    /** The plans as one text file ({@code postgres-explain.txt} of the run). */
    public static String text(List<PostgresSetup.Plan> plans) {
        StringBuilder b = new StringBuilder();
        for (PostgresSetup.Plan p : plans) {
            b.append("-- ").append(p.queryClass()).append(" (plan_cache_mode = ").append(p.planCacheMode())
                    .append(")\n").append(p.sql()).append("\n-- parameters: ").append(p.parameters()).append('\n');
            p.plan().forEach(line -> b.append(line).append('\n'));
            b.append('\n');
        }
        return b.toString();
    }

    /** {@code ?} placeholders as {@code $1 … $n} (the SQL of {@link PgQuery} has no {@code ?} in literals). */
    static String numbered(String sql) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                b.append('$').append(++n);
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    static String arguments(List<Object> params) {
        if (params.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < params.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(literal(params.get(i)));
        }
        return b.append(')').toString();
    }

    static String literal(Object p) {
        if (p instanceof String[] array) {
            StringBuilder b = new StringBuilder("ARRAY[");
            for (int i = 0; i < array.length; i++) {
                b.append(i == 0 ? "" : ",").append(literal(array[i]));
            }
            return b.append("]::text[]").toString();
        }
        if (p instanceof String text) {
            return "'" + text.replace("'", "''") + "'";
        }
        return String.valueOf(p);
    }
}
