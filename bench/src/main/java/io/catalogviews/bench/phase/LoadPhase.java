package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.observe.CommitTimes;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.PassThrough;

import java.util.Locale;

/**
 * Publishes the catalog and waits until every view has caught up with it: first the products (new products, a load
 * into empty views), then the changes, each kind timed on its own ({@link TimedWrites}, in {@code --runs} parts);
 * then, unless {@code --no-pass-through}, times a pass-through topology over the same events, the yardstick of the
 * materialization rate.
 */
public final class LoadPhase {

    private final RunContext ctx;

    public LoadPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    /** The load's commits, read from the service's metrics, said when the service exposes them. */
    private void sayCommits(CommitTimes.Reading before) {
        CommitTimes commits = before.since();
        if (commits != null) {
            ctx.say("  load's " + commits.describe());
        }
    }

    public LoadFigures run(CatalogModel model, Materialization views, StartPhase.Started started) throws Exception {
        BenchSettings s = ctx.settings();
        long events = s.products() + s.updates();
        ctx.say("publishing " + s.products() + " products and " + s.updates() + " price/stock changes, each kind "
                + "timed in " + s.runs() + " part(s)");
        TimedWrites writes = new TimedWrites(ctx, views, started, model);
        CommitTimes.Reading commitsBefore = CommitTimes.Reading.now(started.serviceUrl());
        MaterializedRuns products = writes.publish("new products", s.products(), s.runs(),
                k -> model.upsert((int) k));
        MaterializedRuns changes = s.updates() == 0 ? null
                : writes.publish("changes", s.updates(), s.runs(), k -> model.nextChange());
        LoadFigures load = LoadFigures.of(products, changes);
        ctx.say(String.format(Locale.ROOT, "load: %,d events materialized at %,.0f events/s (new products median "
                        + "%,.0f/s%s)", load.events(), load.materializedPerSecond(), products.medianPerSecond(),
                changes == null ? "" : String.format(Locale.ROOT, ", changes median %,.0f/s",
                        changes.medianPerSecond())));
        sayCommits(commitsBefore);
        if (!s.passThrough()) {
            return load;
        }
        ctx.say("pass-through topology (exactly_once_v2) over the same events, as the yardstick");
        double rate = PassThrough.run(started.bootstrapServers(), s.inputTopic(), s.partitions(), events,
                ctx.workDir().resolve("passthrough-state"));
        load = load.withPassThrough(rate);
        ctx.say(String.format(Locale.ROOT, "pass-through: %,.0f events/s; catalog-views materialized at "
                + "%.0f %% of it", rate, 100 * load.fractionOfPassThrough()));
        return load;
    }
}
