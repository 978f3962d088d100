package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.load.LoadRunner;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.query.Query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every measured query run of a run ({@code queries} in results.json), in the order measured, whichever phase
 * measured it: each is printed as one line, and {@code afterEach} runs after each (the checkpoint of the results).
 */
public final class QueryRuns {

    private final RunContext ctx;
    private final CatalogModel model;
    private final Runnable afterEach;
    private final List<LoadResult> runs = new ArrayList<>();

    public QueryRuns(RunContext ctx, CatalogModel model, Runnable afterEach) {
        this.ctx = ctx;
        this.model = model;
        this.afterEach = afterEach;
    }

    /** The runs measured so far. */
    public List<LoadResult> all() {
        return List.copyOf(runs);
    }

    /** Loads {@code target} for {@code duration} without recording anything: the JIT warm-up. */
    public void warm(Target target, Query.Workload workload, int concurrency, Duration duration) {
        LoadRunner.run(target, workload, model, concurrency, duration, Duration.ofMillis(1), ctx.settings().seed());
    }

    /** A run of the query phase: the settings' warm-up and duration. */
    public LoadResult measure(Target target, Query.Workload workload, int concurrency) {
        return measure(target, workload, concurrency, null);
    }

    /** A run of a later phase, its target named {@code <target>/<phase>}: the settings' warm-up and duration. */
    public LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase) {
        BenchSettings s = ctx.settings();
        return measure(target, workload, concurrency, phase, s.warmup(), s.duration());
    }

    public LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase,
                              Duration warmup, Duration duration) {
        LoadResult r = LoadRunner.run(target, workload, model, concurrency, warmup, duration, ctx.settings().seed());
        if (phase != null) {
            r = new LoadResult(r.target() + "/" + phase, r.queryClass(), r.concurrency(), r.seconds(), r.ok(),
                    r.wrong(), r.errors(), r.throughput(), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.meanBytes(),
                    r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores(), r.samples());
        }
        runs.add(r);
        afterEach.run();
        ctx.out().printf(Locale.ROOT, "  %-26s %-17s c=%-3d %,10.0f/s  p50 %7.2f  p99 %7.2f  max %8.2f ms  "
                        + "%6.0f B  wrong %d  errors %d  cpu srv %.2f cli %.2f other %.2f%n", r.target(), r.queryClass(),
                r.concurrency(), r.throughput(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.meanBytes(), r.wrong(), r.errors(),
                r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores());
        for (String sample : r.samples()) {
            ctx.out().println("      " + sample);
        }
        return r;
    }
}
