package io.catalogviews.bench.phase;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.Publishers;
import io.catalogviews.cli.EventPublisher;
import io.catalogviews.cli.ProgressBar;
import io.catalogviews.events.ProductEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * Publishes one kind of write in {@code parts} parts and times each until every view has applied it (the load
 * phase's check, {@link Materialization#awaitCaughtUp}): materialized events per second of each part, so that a
 * figure can be given as median and range ({@code --runs}).
 */
final class TimedWrites {

    private final RunContext ctx;
    private final Materialization views;
    private final StartPhase.Started started;
    private final CatalogModel model;

    TimedWrites(RunContext ctx, Materialization views, StartPhase.Started started, CatalogModel model) {
        this.ctx = ctx;
        this.views = views;
        this.started = started;
        this.model = model;
    }

    /**
     * Publishes events {@code 0 … count - 1} of {@code event} (which applies each to the model) in {@code parts}
     * parts as equal as they can be.
     */
    MaterializedRuns publish(String kind, long count, int parts, LongFunction<ProductEvent> event) {
        List<MaterializedRuns.Part> done = new ArrayList<>();
        long from = 0;
        for (int p = 0; p < parts; p++) {
            long to = count * (p + 1) / parts;
            if (to > from) {
                done.add(part(kind + (parts > 1 ? " " + (p + 1) + "/" + parts : ""), from, to, event));
            }
            from = to;
        }
        return MaterializedRuns.of(kind, done);
    }

    private MaterializedRuns.Part part(String label, long from, long to, LongFunction<ProductEvent> event) {
        long base = views.lag().inputCommitted();
        long n = to - from;
        long t0 = System.nanoTime();
        double publishSeconds;
        try (EventPublisher sender = Publishers.batched(started.bootstrapServers(), ctx.settings().inputTopic())) {
            ProgressBar bar = new ProgressBar(System.err, "publishing " + label, n);
            for (long k = from; k < to; k++) {
                sender.publish(event.apply(k), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            sender.flush();
            bar.finish(sender.acknowledged());
            publishSeconds = (System.nanoTime() - t0) / 1e9; // before the producer's close, as in earlier runs
        }
        long caughtUp = views.awaitCaughtUp(started.serviceUrl(), model, base, base + n, Duration.ofMinutes(60),
                "materializing " + label);
        double seconds = (caughtUp - t0) / 1e9;
        ctx.say(String.format(Locale.ROOT, "%s: %,d events published at %,.0f/s; every view caught up after %.1f s: "
                + "%,.0f events/s materialized", label, n, n / publishSeconds, seconds, n / seconds));
        return new MaterializedRuns.Part(n, publishSeconds, seconds, n / seconds);
    }
}
