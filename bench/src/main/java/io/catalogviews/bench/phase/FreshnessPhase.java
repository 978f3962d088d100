package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.service.Freshness;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.Publishers;
import io.catalogviews.cli.EventPublisher;

import java.time.Duration;
import java.util.Locale;

/**
 * Freshness of the product view under a steady rate of changes ({@link Freshness}), then a wait until every view
 * has applied them, so that the next phase starts from a caught-up service.
 */
public final class FreshnessPhase {

    private final RunContext ctx;

    public FreshnessPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    public Freshness.Result run(CatalogModel model, Materialization views, StartPhase.Started started) {
        BenchSettings s = ctx.settings();
        ctx.say("freshness: " + s.freshnessRate() + " changes/s for " + s.freshnessDuration().toSeconds() + " s");
        long base = views.lag().inputCommitted();
        long before = model.changesApplied();
        Freshness.Result f;
        try (EventPublisher sender = Publishers.immediate(started.bootstrapServers(), s.inputTopic())) {
            f = Freshness.run(sender, model, started.serviceUrl(), s.freshnessRate(), s.freshnessDuration(), 10);
        }
        ctx.say(String.format(Locale.ROOT, "freshness p50 %.1f ms, p99 %.1f ms (%d probes)", f.p50Ms(), f.p99Ms(),
                f.probes()));
        views.awaitCaughtUp(started.serviceUrl(), model, base, base + model.changesApplied() - before,
                Duration.ofMinutes(10), "catching up");
        return f;
    }
}
