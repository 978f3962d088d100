package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.PassThrough;
import io.catalogviews.bench.service.Publishers;
import io.catalogviews.cli.EventPublisher;
import io.catalogviews.cli.ProgressBar;

import java.time.Duration;
import java.util.Locale;

/**
 * Publishes the catalog (the products, then the changes) and waits until every view has caught up with it; then,
 * unless {@code --no-pass-through}, times a pass-through topology over the same events, the yardstick of the
 * materialization rate.
 */
public final class LoadPhase {

    private final RunContext ctx;

    public LoadPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    public LoadFigures run(CatalogModel model, Materialization views, StartPhase.Started started) throws Exception {
        BenchSettings s = ctx.settings();
        long events = s.products() + s.updates();
        ctx.say("publishing " + s.products() + " products and " + s.updates() + " price/stock changes");
        long t0 = System.nanoTime();
        double publishSeconds;
        try (EventPublisher sender = Publishers.batched(started.bootstrapServers(), s.inputTopic())) {
            ProgressBar bar = new ProgressBar(System.err, "publishing", events);
            for (int i = 0; i < s.products(); i++) {
                sender.publish(model.upsert(i), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            for (long k = 0; k < s.updates(); k++) {
                sender.publish(model.nextChange(), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            sender.flush();
            bar.finish(sender.acknowledged());
            publishSeconds = (System.nanoTime() - t0) / 1e9; // before the producer's close, as in earlier runs
        }
        long caughtUp = views.awaitCaughtUp(started.serviceUrl(), model, 0, events, Duration.ofMinutes(60),
                "materializing");
        LoadFigures load = LoadFigures.of(s.products(), s.updates(), publishSeconds, (caughtUp - t0) / 1e9);
        ctx.say(String.format(Locale.ROOT, "published %,.0f events/s; every view caught up after %.1f s: "
                        + "%,.0f events/s materialized", load.publishedPerSecond(), load.materializeSeconds(),
                load.materializedPerSecond()));
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
