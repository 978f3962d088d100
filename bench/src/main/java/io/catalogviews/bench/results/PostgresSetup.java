package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL peer ({@code postgres}): where it ran, its HTTP front's pool, its schema; and, since the peer is
 * set up as a DBA would (issue 14), its server version and settings, its facet strategy, the pool size and plan-cache
 * modes chosen by measurement ({@code tuning}) and the plan of one statement of each query class ({@code explain},
 * also in {@code postgres-explain.txt} of the run).
 *
 * @param httpPool the sessions its HTTP front's Jetty threads share (the measured choice once {@code tuning} ran)
 * @param jdbcPool the sessions the JDBC target's load threads share
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PostgresSetup(String jdbcUrl, int httpPool, List<String> schema, String version,
                            Map<String, String> settings, String facetStrategy, Integer jdbcPool, Tuning tuning,
                            List<Plan> explain) {

    public PostgresSetup(String jdbcUrl, int httpPool, List<String> schema) {
        this(jdbcUrl, httpPool, schema, null, null, null, null, null, null);
    }

    /** This set-up after the tuning: the pools chosen, the modes, the plans. */
    public PostgresSetup tuned(Tuning measured, List<Plan> plans) {
        return new PostgresSetup(jdbcUrl, measured.pool(), schema, version, settings, facetStrategy, measured.pool(),
                measured, plans);
    }

    /**
     * The measurements behind the pool size and the plan-cache modes: each setting loaded in turn (ABAB over the
     * repetitions), the best median kept.
     *
     * @param poolTrials the PostgreSQL HTTP front at each pool size, per class
     * @param pool       the size chosen (best geometric mean of the classes' medians)
     * @param planTrials each listing class and facets through JDBC with {@code auto} and {@code force_custom_plan}
     * @param planModes  the mode chosen per class
     */
    public record Tuning(List<Trial> poolTrials, int pool, List<Trial> planTrials, Map<String, String> planModes,
                         double secondsPerTrial, String note) {

        public Tuning {
            planModes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(planModes));
        }

        public static final String NOTE = "short unrecorded runs at the headline concurrency, after the warm-up; "
                + "each setting measured --runs times in alternation, the best median kept";
    }

    /** One setting of one class: right answers per second of each repetition, and their median. */
    public record Trial(String setting, String queryClass, String target, List<Double> throughputs, double median) {
    }

    /** {@code EXPLAIN (ANALYZE, BUFFERS)} of one statement, after five executions of it as a prepared statement. */
    public record Plan(String queryClass, String planCacheMode, String sql, List<String> parameters,
                       List<String> plan) {
    }
}
