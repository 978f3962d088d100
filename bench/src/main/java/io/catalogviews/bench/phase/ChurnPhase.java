package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.observe.ChangelogProduced;
import io.catalogviews.bench.observe.MetricsScrape;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.ChangelogWrites;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.results.Stats;
import io.catalogviews.bench.service.Materialization;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Churn: many more price and stock changes (each moves index keys, leaving tombstones behind), materialized (timed
 * in {@code --runs} parts) with what they wrote to the changelog topics, then the index-heavy classes measured
 * again beside their throughput before, and beside the ceiling measured again, so that a machine busier than before
 * is not read as a slower service (design decision 5).
 */
public final class ChurnPhase {

    /** The index-heavy classes; the whole-catalog page seeks twelve partitions' indexes, so it feels churn most. */
    private static final List<QueryClass> CLASSES = List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED,
            QueryClass.CATEGORY_PRICE_DESC, QueryClass.DEEP_PAGE, QueryClass.CATALOG_PAGE);

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
        Materialization.ChangelogState logsBefore = changelogState(views);
        Map<String, Long> sentBefore = ChangelogProduced.bytesByTopic(MetricsScrape.of(started.serviceUrl()),
                s.applicationId());
        MaterializedRuns churn = new TimedWrites(ctx, views, started, model)
                .publish("churn", s.churnUpdates(), s.runs(), k -> model.nextChange());
        Map<String, Long> sentAfter = ChangelogProduced.bytesByTopic(MetricsScrape.of(started.serviceUrl()),
                s.applicationId());
        ChangelogWrites changelog = changelogWrites(logsBefore, changelogState(views), s.churnUpdates(),
                sent(sentBefore, sentAfter));
        if (changelog != null) {
            ctx.say(String.format(Locale.ROOT, "churn wrote %,d changelog bytes (%.0f per change) and %,d offsets "
                    + "(%.1f per change)", changelog.bytesWritten(), changelog.bytesPerChange(),
                    changelog.offsetsWritten(), changelog.offsetsPerChange()));
        }
        Workloads after = new Workloads(model, s.seed());
        List<ChurnFigures.Row> rows = new ArrayList<>();
        for (QueryClass c : CLASSES) {
            if (!s.classes().contains(c)) {
                continue;
            }
            List<Double> serviceAfter = new ArrayList<>();
            List<Double> ceilingAfter = new ArrayList<>();
            for (int run = 1; run <= s.runs(); run++) {
                LoadResult r = runs.measure(service, workloads.of(after, service, c), concurrency, "after-churn", run);
                serviceAfter.add(r.throughput());
                if (ceiling != null) {
                    ceilingAfter.add(runs.measure(ceiling, TargetWorkloads.ceiling(c, (int) Math.round(r.meanBytes())),
                            concurrency, "after-churn", run).throughput());
                }
            }
            rows.add(ChurnFigures.Row.of(c.key, before.get(c.key), Stats.median(serviceAfter),
                    ceilingAfter.isEmpty() ? null : Stats.median(ceilingAfter), ceilingBefore.get(c.key)));
        }
        return new ChurnFigures(s.churnUpdates(), churn.seconds(), s.churnUpdates() / churn.seconds(), rows, churn,
                changelog);
    }

    /** The changelog topics now, or null when the broker does not say (the figure is then left out). */
    private Materialization.ChangelogState changelogState(Materialization views) {
        try {
            return views.changelogState(ctx.settings().applicationId());
        } catch (RuntimeException e) {
            ctx.say("cannot read the changelog topics' sizes: " + e.getMessage());
            return null;
        }
    }

    /**
     * @param sent what each changelog topic was sent during the churn (producer metrics), or null when not known:
     *             then the bytes are the growth of the topics' logs
     */
    static ChangelogWrites changelogWrites(Materialization.ChangelogState before,
                                           Materialization.ChangelogState after, long changes,
                                           Map<String, Long> sent) {
        if (before == null || after == null || changes <= 0) {
            return null;
        }
        Map<String, Long> byTopic = new java.util.TreeMap<>();
        after.bytes().forEach((topic, bytes) -> byTopic.put(topic, bytes - before.bytes().getOrDefault(topic, 0L)));
        long logGrowth = after.totalBytes() - before.totalBytes();
        long bytes = sent == null ? logGrowth : sent.values().stream().mapToLong(Long::longValue).sum();
        long offsets = after.totalEndOffsets() - before.totalEndOffsets();
        return new ChangelogWrites(changes, before.totalBytes(), after.totalBytes(), bytes, offsets,
                (double) bytes / changes, (double) offsets / changes, sent == null ? byTopic : sent,
                ChangelogWrites.NOTE, logGrowth);
    }

    /** Bytes sent to each topic between two readings; null when either is missing or a counter went down. */
    static Map<String, Long> sent(Map<String, Long> before, Map<String, Long> after) {
        if (before == null || after == null) {
            return null;
        }
        Map<String, Long> sent = new java.util.TreeMap<>();
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long delta = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (delta < 0) {
                return null; // a producer was replaced between the readings: its counts started again
            }
            sent.put(e.getKey(), delta);
        }
        return sent;
    }

    /** Median throughput of each class that {@code target} ran at {@code concurrency} before the churn. */
    private Map<String, Double> throughputs(HttpTarget target, int concurrency) {
        Map<String, List<Double>> byClass = new HashMap<>();
        for (LoadResult r : runs.all()) {
            if (r.target().equals(target.name()) && r.concurrency() == concurrency) {
                byClass.computeIfAbsent(r.queryClass(), k -> new ArrayList<>()).add(r.throughput());
            }
        }
        Map<String, Double> medians = new HashMap<>();
        byClass.forEach((c, values) -> medians.put(c, Stats.median(values)));
        return medians;
    }
}
