package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.load.CpuClock;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.report.Report;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.bench.service.Materialization;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The last phase, so that it changes nothing another phase measured: stops the service cleanly (SIGTERM: Kafka
 * Streams closes with LEAVE_GROUP), deletes its state directory, starts it again on the same port, broker and
 * application id, and times it until it answers right ({@link RestoreWatch}); then one short verified pass over
 * every query class, for the restored index and facet entries, not only the rows. A failure is recorded with the
 * figures measured before it, not thrown, so that the figures of the other phases are still reported.
 */
public final class RestorePhase {

    /** How long each query class is checked after the restore. */
    private static final Duration CHECK = Duration.ofSeconds(1);
    private static final double MB = 1024.0 * 1024;

    private final RunContext ctx;
    private final QueryRuns runs;
    private final TargetWorkloads workloads;

    public RestorePhase(RunContext ctx, QueryRuns runs, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.runs = runs;
        this.workloads = workloads;
    }

    public RestoreFigures run(ServiceJvm service, CatalogModel model, Materialization views) {
        BenchSettings s = ctx.settings();
        RestoreFigures.Changelogs changelogs = null;
        Double stopSeconds = null;
        RestoreFigures.Timing timing = null;
        try {
            changelogs = changelogs(service, views);
            ctx.say(String.format(Locale.ROOT, "restore: stopping the service cleanly (SIGTERM; state directory "
                            + "%.0f MB, changelogs %,d offsets in %d topics)", changelogs.stateDirMbBefore(),
                    changelogs.changelogOffsets(), changelogs.changelogTopics().size()));
            long stop0 = System.nanoTime();
            service.stop();
            stopSeconds = (System.nanoTime() - stop0) / 1e9;
            Dirs.deleteQuietly(service.stateDir());
            if (Files.exists(service.stateDir())) {
                throw new IllegalStateException("cannot delete the state directory " + service.stateDir());
            }
            ctx.say("restore: state directory deleted; starting the service again on port " + service.port()
                    + " (same broker, same application id)");
            long t0 = System.nanoTime();
            ChildJvm restarted = service.start(ctx.runDir().resolve("service-restore.log"));
            timing = new RestoreWatch(restarted, model, views, s.products(), changelogs.changelogOffsets())
                    .await(t0, Duration.ofMinutes(Math.max(10, s.products() / 5_000)));
            ctx.say(String.format(Locale.ROOT, "restore: HTTP up after %.1f s, ready after %.1f s, caught up and "
                            + "right after %.1f s: %,.0f products/s, %.1f s per 100 000 products, %,.0f changelog "
                            + "offsets/s (to ready)", timing.httpUpSeconds(), timing.readySeconds(),
                    timing.restoreSeconds(), timing.productsPerSecond(), timing.secondsPer100kProducts(),
                    timing.changelogOffsetsPerSecondToReady()));
            RestoreFigures.Verification verification = verify(restarted, model);
            return new RestoreFigures(null, changelogs, stopSeconds, timing, verification,
                    Dirs.sizeOf(service.stateDir()) / MB, CpuClock.residentBytes(restarted.pid()) / MB, null);
        } catch (Exception e) {
            ctx.say("restore FAILED: " + e.getMessage());
            return RestoreFigures.failed(changelogs, stopSeconds, timing, null, e.toString());
        }
    }

    private RestoreFigures.Changelogs changelogs(ServiceJvm service, Materialization views) {
        BenchSettings s = ctx.settings();
        Map<String, Long> topics = views.changelogOffsets(s.applicationId());
        long offsets = topics.values().stream().mapToLong(Long::longValue).sum();
        return new RestoreFigures.Changelogs(s.products(), topics, offsets, RestoreFigures.Changelogs.NOTE,
                Dirs.sizeOf(service.stateDir()) / MB);
    }

    private RestoreFigures.Verification verify(ChildJvm restarted, CatalogModel model) {
        HttpTarget target = new HttpTarget(Report.SERVICE, restarted.url(), restarted.pid());
        Workloads expected = new Workloads(model, ctx.settings().seed());
        int concurrency = Math.min(4, ctx.settings().headlineConcurrency());
        long ok = 0;
        long wrong = 0;
        long errors = 0;
        for (QueryClass c : QueryClass.values()) {
            LoadResult check = runs.measure(target, workloads.of(expected, target, c), concurrency, "after-restore",
                    Duration.ZERO, CHECK);
            ok += check.ok();
            wrong += check.wrong();
            errors += check.errors();
        }
        ctx.say(String.format(Locale.ROOT, "restore: verified every query class after the restore: %,d right, "
                + "%d wrong, %d errors", ok, wrong, errors));
        return new RestoreFigures.Verification(Arrays.stream(QueryClass.values()).map(c -> c.key).toList(),
                concurrency, CHECK.toMillis() / 1000.0, ok, wrong, errors);
    }
}
