package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.peer.JdbcTarget;
import io.catalogviews.bench.peer.PgExplain;
import io.catalogviews.bench.peer.PgQuery;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.DeepPage;
import io.catalogviews.bench.results.PostgresSetup;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The verified query runs: every class at every concurrency against the service, and beside it the ceiling (for
 * the same answer size) and PostgreSQL behind HTTP and through JDBC; each target warmed up first, PostgreSQL then
 * tuned ({@link PostgresTuning}) and its plans recorded. Each measurement is taken {@code --runs} times, the targets
 * it compares in turn (service, ceiling, PostgreSQL over HTTP, through JDBC; again …), so that a machine that drifts
 * during the phase weighs on all of them alike.
 */
public final class QueryPhase {

    /**
     * What the phase found besides its runs.
     *
     * @param deepPages the deep pages the {@code deep-page} class asks
     * @param tuning    PostgreSQL's measured pool size and plan-cache modes (null without PostgreSQL)
     * @param plans     the plan of one statement of each class PostgreSQL ran (null without PostgreSQL)
     * @param expected  the queries asked and their expected answers (the freshness phase's read mix asks them too)
     */
    public record Result(List<DeepPage> deepPages, PostgresSetup.Tuning tuning, List<PostgresSetup.Plan> plans,
                         Workloads expected) {
    }

    private final RunContext ctx;
    private final QueryRuns runs;
    private final TargetWorkloads workloads;

    public QueryPhase(RunContext ctx, QueryRuns runs, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.runs = runs;
        this.workloads = workloads;
    }

    public Result run(CatalogModel model, HttpTarget service, PeersPhase.Peers peers) throws Exception {
        BenchSettings s = ctx.settings();
        ctx.say("computing the expected answers");
        Workloads expected = new Workloads(model, s.seed());
        List<DeepPage> deep = new ArrayList<>();
        for (Workloads.Deep d : expected.deepPages()) {
            deep.add(new DeepPage(d.category(), d.pageNumber(), d.page().offset()));
        }
        warmUp(expected, service, peers);
        HttpTarget ceiling = peers.ceiling();
        PeersPhase.Postgres pg = peers.postgres();
        PostgresSetup.Tuning tuning = null;
        List<PostgresSetup.Plan> plans = null;
        if (pg != null) {
            tuning = new PostgresTuning(ctx, runs, workloads).run(expected, pg);
            plans = explain(expected, model, pg);
        }
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                for (int run = 1; run <= s.runs(); run++) {
                    LoadResult main = runs.measure(service, workloads.of(expected, service, c), concurrency, null,
                            run);
                    if (ceiling != null) {
                        runs.measure(ceiling, TargetWorkloads.ceiling(c, (int) Math.round(main.meanBytes())),
                                concurrency, null, run);
                    }
                    if (pg != null) {
                        runs.measure(pg.http(), workloads.of(expected, pg.http(), c), concurrency, null, run);
                        runs.measure(pg.jdbc(), workloads.of(expected, pg.jdbc(), c), concurrency, null, run);
                    }
                }
            }
        }
        return new Result(deep, tuning, plans, expected);
    }

    /** EXPLAIN of the first query of each class PostgreSQL runs; also written to {@code postgres-explain.txt}. */
    private List<PostgresSetup.Plan> explain(Workloads expected, CatalogModel model, PeersPhase.Postgres pg)
            throws Exception {
        List<PgQuery> queries = new ArrayList<>();
        for (QueryClass c : ctx.settings().classes()) {
            Spec first = switch (c) {
                case GET_BY_ID -> new Spec.GetById(0);
                case BATCH_100 -> new Spec.Batch(expected.batches().get(0));
                case FACETS -> expected.facets().get(0);
                default -> expected.pages(c).isEmpty() ? null : expected.pages(c).get(0);
            };
            if (first != null) {
                queries.add(JdbcTarget.queryOf(first, model));
            }
        }
        List<PostgresSetup.Plan> plans = PgExplain.explain(pg.setup().jdbcUrl(), pg.jdbc().pool().plans(), queries);
        Files.writeString(ctx.runDir().resolve("postgres-explain.txt"), PgExplain.text(plans));
        ctx.say("PostgreSQL plans of " + plans.size() + " classes written to postgres-explain.txt (product "
                + SyntheticCatalog.productId(0) + " for get by id)");
        return plans;
    }

    /**
     * Every JVM (service, servers, this harness) was just started: one unmeasured pass over every class first, so
     * that no class pays for the JIT compilation of the next. A few seconds are not enough: with 3 s, get by id ran
     * at half the rate it reached after 40 s (docs/benchmarks.md), the C2 compiler still busy.
     */
    private void warmUp(Workloads expected, HttpTarget service, PeersPhase.Peers peers) {
        BenchSettings s = ctx.settings();
        Duration perClass = s.jitWarmup().dividedBy(Math.max(1, s.classes().size()));
        if (perClass.compareTo(s.warmup()) < 0) {
            perClass = s.warmup();
        }
        ctx.say("warming up every target (one unmeasured pass over every class, " + perClass.toMillis() / 1000.0
                + " s each)");
        List<Target> warm = new ArrayList<>();
        warm.add(service);
        if (peers.ceiling() != null) {
            warm.add(peers.ceiling());
        }
        if (peers.postgres() != null) {
            warm.add(peers.postgres().http());
            warm.add(peers.postgres().jdbc());
        }
        for (Target target : warm) {
            for (QueryClass c : s.classes()) {
                runs.warm(target, target == peers.ceiling() ? TargetWorkloads.ceiling(c, 1000)
                        : workloads.of(expected, target, c), s.headlineConcurrency(), perClass);
            }
        }
    }
}
