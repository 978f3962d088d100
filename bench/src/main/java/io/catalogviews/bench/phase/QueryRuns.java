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

    private static final Duration CALIBRATION_WARMUP = Duration.ofSeconds(1);
    private static final Duration CALIBRATION = Duration.ofSeconds(3);

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

    /**
     * A short run that is not recorded among the runs: a measurement that chooses a setting (PostgreSQL's pool size
     * and plan-cache modes), at most 1 s of warm-up and 3 s measured.
     */
    public LoadResult calibrate(Target target, Query.Workload workload, int concurrency, String setting) {
        BenchSettings s = ctx.settings();
        LoadResult r = LoadRunner.run(target, workload, model, concurrency, min(s.warmup(), CALIBRATION_WARMUP),
                min(s.duration(), CALIBRATION), s.seed());
        ctx.out().printf(Locale.ROOT, "  %-26s %-17s c=%-3d %,10.0f/s  p99 %7.2f ms  wrong %d  errors %d  (%s)%n",
                r.target(), r.queryClass(), r.concurrency(), r.throughput(), r.p99Ms(), r.wrong(), r.errors(),
                setting);
        return r;
    }

    /** How long a calibration run measures. */
    public Duration calibrationSeconds() {
        return min(ctx.settings().duration(), CALIBRATION);
    }

    /** A run of the query phase: the settings' warm-up and duration. */
    public LoadResult measure(Target target, Query.Workload workload, int concurrency) {
        return measure(target, workload, concurrency, null, 1);
    }

    /** Repetition {@code run} of a run of the query phase ({@code --runs}). */
    public LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase, int run) {
        BenchSettings s = ctx.settings();
        return measure(target, workload, concurrency, phase, s.warmup(), s.duration(), run);
    }

    /** A run of a later phase, its target named {@code <target>/<phase>}: the settings' warm-up and duration. */
    public LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase) {
        return measure(target, workload, concurrency, phase, 1);
    }

    public LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase,
                              Duration warmup, Duration duration) {
        return measure(target, workload, concurrency, phase, warmup, duration, 1);
    }

    private LoadResult measure(Target target, Query.Workload workload, int concurrency, String phase,
                               Duration warmup, Duration duration, int run) {
        LoadResult r = LoadRunner.run(target, workload, model, concurrency, warmup, duration, ctx.settings().seed())
                .asRun(run);
        if (phase != null) {
            r = r.named(r.target() + "/" + phase);
        }
        runs.add(r);
        afterEach.run();
        ctx.out().printf(Locale.ROOT, "  %-26s %-17s c=%-3d #%d %,10.0f/s  p50 %7.2f  p99 %7.2f  max %8.2f ms  "
                        + "%6.0f B  wrong %d  errors %d  cpu srv %.2f cli %.2f (%.1f µs/req, %d parsed) other %.2f%n",
                r.target(), r.queryClass(), r.concurrency(), r.run(), r.throughput(), r.p50Ms(), r.p99Ms(), r.maxMs(),
                r.meanBytes(), r.wrong(), r.errors(), r.serverCpuCores(), r.clientCpuCores(),
                r.clientCpuMicrosPerRequest(), r.parsedAnswers(), r.otherCpuCores());
        for (String sample : r.samples()) {
            ctx.out().println("      " + sample);
        }
        return r;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }
}
