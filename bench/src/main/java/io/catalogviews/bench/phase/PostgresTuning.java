package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.peer.PgPlans;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.results.Stats;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sets PostgreSQL up the way a DBA would tune it, by measurement, before its measured runs: the number of sessions
 * that may run at once (its HTTP front's pool and the JDBC target's, each of {@code --postgres-pools} in turn,
 * judged on get by id and the filtered category page through HTTP), then the plan-cache mode of every listing class
 * and of facets ({@code auto} against {@code force_custom_plan}, through JDBC). Each setting is measured
 * {@code --runs} times in alternation; the best median is kept and applied to both targets.
 */
final class PostgresTuning {

    private static final List<QueryClass> POOL_CLASSES = List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE);
    private static final List<QueryClass> PLAN_CLASSES = List.of(QueryClass.CATEGORY_PRICE,
            QueryClass.CATEGORY_UPDATED, QueryClass.CATEGORY_PRICE_DESC, QueryClass.PAGE_ONE, QueryClass.DEEP_PAGE, QueryClass.FACETS,
            QueryClass.CATALOG_PAGE);

    private final RunContext ctx;
    private final QueryRuns runs;
    private final TargetWorkloads workloads;

    PostgresTuning(RunContext ctx, QueryRuns runs, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.runs = runs;
        this.workloads = workloads;
    }

    PostgresSetup.Tuning run(Workloads expected, PeersPhase.Postgres pg) {
        BenchSettings s = ctx.settings();
        List<Integer> sizes = s.postgresPools();
        int pool = sizes.get(0);
        List<PostgresSetup.Trial> poolTrials = new ArrayList<>();
        List<QueryClass> poolClasses = POOL_CLASSES.stream().filter(s.classes()::contains).toList();
        if (sizes.size() > 1 && !poolClasses.isEmpty()) {
            ctx.say("PostgreSQL: measuring pool sizes " + sizes + " (HTTP front, " + poolClasses.size() + " classes)");
            Map<String, List<Double>> measured = new LinkedHashMap<>();
            for (int rep = 0; rep < s.runs(); rep++) {
                for (int size : sizes) {
                    apply(pg, size, PgPlans.defaults());
                    for (QueryClass c : poolClasses) {
                        measured.computeIfAbsent(size + " " + c.key, k -> new ArrayList<>())
                                .add(calibrate(pg.http(), expected, c, "pool " + size).throughput());
                    }
                }
            }
            double best = Double.NEGATIVE_INFINITY;
            for (int size : sizes) {
                double logSum = 0;
                for (QueryClass c : poolClasses) {
                    PostgresSetup.Trial t = trial("pool " + size, c, pg.http(), measured.get(size + " " + c.key));
                    poolTrials.add(t);
                    logSum += Math.log(Math.max(t.median(), 1e-9));
                }
                if (logSum > best) {
                    best = logSum;
                    pool = size;
                }
            }
        }
        PgPlans plans = PgPlans.defaults();
        List<PostgresSetup.Trial> planTrials = new ArrayList<>();
        Map<String, String> chosen = new TreeMap<>();
        List<QueryClass> planClasses = PLAN_CLASSES.stream().filter(s.classes()::contains).toList();
        ctx.say("PostgreSQL: pool " + pool + "; measuring plan_cache_mode auto against force_custom_plan for "
                + planClasses.size() + " classes (JDBC)");
        for (QueryClass c : planClasses) {
            Map<String, List<Double>> measured = new LinkedHashMap<>();
            for (int rep = 0; rep < s.runs(); rep++) {
                for (String mode : List.of(PgPlans.AUTO, PgPlans.CUSTOM)) {
                    apply(pg, pool, plans.with(c.key, mode));
                    measured.computeIfAbsent(mode, k -> new ArrayList<>())
                            .add(calibrate(pg.jdbc(), expected, c, mode).throughput());
                }
            }
            PostgresSetup.Trial auto = trial(PgPlans.AUTO, c, pg.jdbc(), measured.get(PgPlans.AUTO));
            PostgresSetup.Trial custom = trial(PgPlans.CUSTOM, c, pg.jdbc(), measured.get(PgPlans.CUSTOM));
            planTrials.add(auto);
            planTrials.add(custom);
            String mode = custom.median() > auto.median() ? PgPlans.CUSTOM : PgPlans.AUTO;
            chosen.put(c.key, mode);
            plans = plans.with(c.key, mode);
        }
        apply(pg, pool, plans);
        ctx.say("PostgreSQL: pool " + pool + ", plan_cache_mode " + (chosen.isEmpty() ? "auto" : chosen));
        return new PostgresSetup.Tuning(poolTrials, pool, planTrials, chosen,
                runs.calibrationSeconds().toMillis() / 1000.0, PostgresSetup.Tuning.NOTE);
    }

    private LoadResult calibrate(Target target, Workloads expected, QueryClass c, String setting) {
        return runs.calibrate(target, workloads.of(expected, target, c), ctx.settings().headlineConcurrency(),
                setting);
    }

    private static PostgresSetup.Trial trial(String setting, QueryClass c, Target target, List<Double> throughputs) {
        return new PostgresSetup.Trial(setting, c.key, target.name(), List.copyOf(throughputs),
                Stats.median(throughputs));
    }

    /** Tells both PostgreSQL targets: the JDBC pool directly, the HTTP front through its tuning route. */
    static void apply(PeersPhase.Postgres pg, int pool, PgPlans plans) {
        pg.jdbc().pool().resize(pool);
        pg.jdbc().pool().plans(plans);
        HttpTarget http = pg.http();
        String target = "/admin/tuning?pool=" + pool + "&plans=" + Workloads.encode(plans.text());
        try (HttpConnection c = HttpConnection.to(http.baseUrl(), 30_000)) {
            HttpConnection.Response r = c.exchange(HttpConnection.postJson(target, new byte[0]), new byte[0]);
            if (r.status() != 200) {
                throw new IllegalStateException("PostgreSQL's HTTP front answered " + r.status() + " to " + target);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot tune PostgreSQL's HTTP front (" + target + ")", e);
        }
    }
}
