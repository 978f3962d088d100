package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.DeepPage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The verified query runs: every class at every concurrency against the service, and beside it the ceiling (for
 * the same answer size) and PostgreSQL behind HTTP and through JDBC; each target warmed up first.
 */
public final class QueryPhase {

    private final RunContext ctx;
    private final QueryRuns runs;
    private final TargetWorkloads workloads;

    public QueryPhase(RunContext ctx, QueryRuns runs, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.runs = runs;
        this.workloads = workloads;
    }

    /** Runs the queries; returns the deep pages the {@code deep-page} class asks. */
    public List<DeepPage> run(CatalogModel model, HttpTarget service, PeersPhase.Peers peers) {
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
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                LoadResult main = runs.measure(service, workloads.of(expected, service, c), concurrency);
                if (ceiling != null) {
                    runs.measure(ceiling, TargetWorkloads.ceiling(c, (int) Math.round(main.meanBytes())),
                            concurrency);
                }
                if (pg != null) {
                    runs.measure(pg.http(), workloads.of(expected, pg.http(), c), concurrency);
                    runs.measure(pg.jdbc(), workloads.of(expected, pg.jdbc(), c), concurrency);
                }
            }
        }
        return deep;
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
