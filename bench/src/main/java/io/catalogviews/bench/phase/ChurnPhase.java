package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.Publishers;
import io.catalogviews.cli.EventPublisher;
import io.catalogviews.cli.ProgressBar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Churn: many more price and stock changes (each moves index keys, leaving tombstones behind), materialized, then
 * the index-heavy classes measured again beside their throughput before, and beside the ceiling measured again,
 * so that a machine busier than before is not read as a slower service (design decision 5).
 */
public final class ChurnPhase {

    private static final List<QueryClass> CLASSES = List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED,
            QueryClass.DEEP_PAGE);

    private final RunContext ctx;
    private final QueryRuns runs;
    private final TargetWorkloads workloads;

    public ChurnPhase(RunContext ctx, QueryRuns runs, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.runs = runs;
        this.workloads = workloads;
    }

    /** @param ceiling the HTTP ceiling, or null without one */
    public ChurnFigures run(CatalogModel model, Materialization views, StartPhase.Started started,
                            HttpTarget service, HttpTarget ceiling) {
        BenchSettings s = ctx.settings();
        int concurrency = s.headlineConcurrency();
        Map<String, Double> before = throughputs(service, concurrency);
        Map<String, Double> ceilingBefore = ceiling == null ? Map.of() : throughputs(ceiling, concurrency);
        ctx.say("churn: " + s.churnUpdates() + " more price/stock changes");
        long base = views.lag().inputCommitted();
        long t0 = System.nanoTime();
        try (EventPublisher sender = Publishers.batched(started.bootstrapServers(), s.inputTopic())) {
            ProgressBar bar = new ProgressBar(System.err, "publishing churn", s.churnUpdates());
            for (long k = 0; k < s.churnUpdates(); k++) {
                sender.publish(model.nextChange(), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            sender.flush();
            bar.finish(sender.acknowledged());
        }
        long done = views.awaitCaughtUp(started.serviceUrl(), model, base, base + s.churnUpdates(),
                Duration.ofMinutes(60), "materializing churn");
        double seconds = (done - t0) / 1e9;
        Workloads after = new Workloads(model, s.seed());
        List<ChurnFigures.Row> rows = new ArrayList<>();
        for (QueryClass c : CLASSES) {
            if (!s.classes().contains(c)) {
                continue;
            }
            LoadResult r = runs.measure(service, workloads.of(after, service, c), concurrency, "after-churn");
            Double ceilingAfter = null;
            if (ceiling != null) {
                ceilingAfter = runs.measure(ceiling, TargetWorkloads.ceiling(c, (int) Math.round(r.meanBytes())),
                        concurrency, "after-churn").throughput();
            }
            rows.add(ChurnFigures.Row.of(c.key, before.get(c.key), r.throughput(), ceilingAfter,
                    ceilingBefore.get(c.key)));
        }
        return new ChurnFigures(s.churnUpdates(), seconds, s.churnUpdates() / seconds, rows);
    }

    /** Throughput of each class that {@code target} ran at {@code concurrency} before the churn. */
    private Map<String, Double> throughputs(HttpTarget target, int concurrency) {
        Map<String, Double> byClass = new HashMap<>();
        for (LoadResult r : runs.all()) {
            if (r.target().equals(target.name()) && r.concurrency() == concurrency) {
                byClass.put(r.queryClass(), r.throughput());
            }
        }
        return byClass;
    }
}
