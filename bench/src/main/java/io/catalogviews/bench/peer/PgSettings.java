package io.catalogviews.bench.peer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the run records of the PostgreSQL server: its version and the settings that shape its performance. */
public final class PgSettings {

    private static final String NAMES = "'shared_buffers', 'effective_cache_size', 'work_mem', 'random_page_cost', "
            + "'effective_io_concurrency', 'jit', 'synchronous_commit', 'max_connections', 'plan_cache_mode', "
            + "'max_parallel_workers_per_gather', 'checkpoint_timeout', 'max_wal_size'";

    private PgSettings() {
    }

    /** {@code SELECT version()}: the server's version and build. */
    public static String version(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The settings of {@code pg_settings} that bear on the benchmark, with their units. */
    public static Map<String, String> of(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name, setting, unit FROM "
                + "pg_settings WHERE name IN (" + NAMES + ") ORDER BY name")) {
            while (rs.next()) {
                String unit = rs.getString(3);
                out.put(rs.getString(1), rs.getString(2) + (unit == null ? "" : " " + unit));
            }
        }
        return out;
    }
}
