package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.freshness.FreshnessRun;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.observe.CommitTimes;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.ViewFreshness;
import io.catalogviews.bench.service.Materialization;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Freshness of the product view and of the category pages under a steady rate of changes, with the bench's read
 * mix running at the same time ({@link FreshnessRun}), {@code --runs} times; after each run a wait until every view
 * has applied the changes, so that the next run (and the next phase) starts from a caught-up service. Before the
 * first run, {@code --freshness-warmup} of changes and reads, unmeasured, as the query runs have their warm-up.
 */
public final class FreshnessPhase {

    /**
     * How many requests of each class one round of the read mix sends: what a shop's front end asks most (product
     * pages, then filtered category pages, facets beside them), the expensive whole-catalog page and batches rarely,
     * so that the mix loads the service without one class saturating it alone.
     */
    static final Map<QueryClass, Integer> READ_MIX = readMix();

    private static Map<QueryClass, Integer> readMix() {
        Map<QueryClass, Integer> m = new EnumMap<>(QueryClass.class);
        m.put(QueryClass.GET_BY_ID, 8);
        m.put(QueryClass.CATEGORY_PRICE, 4);
        m.put(QueryClass.CATEGORY_UPDATED, 2);
        m.put(QueryClass.PAGE_ONE, 2);
        m.put(QueryClass.FACETS, 2);
        m.put(QueryClass.DEEP_PAGE, 1);
        m.put(QueryClass.BATCH_100, 1);
        m.put(QueryClass.CATALOG_PAGE, 1);
        return Map.copyOf(m);
    }

    private final RunContext ctx;
    private final TargetWorkloads workloads;

    public FreshnessPhase(RunContext ctx, TargetWorkloads workloads) {
        this.ctx = ctx;
        this.workloads = workloads;
    }

    /** @param expected the query phase's workloads: the read mix asks the same queries */
    public FreshnessFigures run(CatalogModel model, Materialization views, StartPhase.Started started,
                                HttpTarget service, Workloads expected) {
        BenchSettings s = ctx.settings();
        List<Query.Workload> mix = new ArrayList<>();
        if (s.freshnessReadRate() > 0) {
            mix = interleaved(s.classes().stream().map(c -> workloads.of(expected, service, c)).toList());
        }
        FreshnessRun freshness = new FreshnessRun(started.bootstrapServers(), s.inputTopic(), started.serviceUrl(),
                s.freshnessRate(), s.freshnessDuration(), mix, s.freshnessReadRate());
        if (!s.freshnessWarmup().isZero()) {
            ctx.say(String.format(Locale.ROOT, "freshness warm-up: %.0f changes/s for %d s, read mix at %.0f "
                    + "requests/s, not measured", s.freshnessRate(), s.freshnessWarmup().toSeconds(),
                    mix.isEmpty() ? 0 : s.freshnessReadRate()));
            long base = views.lag().inputCommitted();
            long sent = freshness.warmUp(model, s.seed(), s.freshnessWarmup());
            views.awaitCaughtUp(started.serviceUrl(), model, base, base + sent, Duration.ofMinutes(10),
                    "catching up after the freshness warm-up");
        }
        List<FreshnessFigures.Run> runs = new ArrayList<>();
        for (int run = 1; run <= s.runs(); run++) {
            ctx.say(String.format(Locale.ROOT, "freshness run %d/%d: %.0f changes/s for %d s, read mix at %.0f "
                            + "requests/s", run, s.runs(), s.freshnessRate(), s.freshnessDuration().toSeconds(),
                    mix.isEmpty() ? 0 : s.freshnessReadRate()));
            long base = views.lag().inputCommitted();
            long before = model.changesApplied();
            CommitTimes.Reading commitsBefore = CommitTimes.Reading.now(started.serviceUrl());
            FreshnessFigures.Run r = freshness.run(run, model, s.seed(), ctx::say);
            CommitTimes commits = commitsBefore.since();
            say("product view", r.productView());
            say("category pages", r.categoryPages());
            if (r.readLoad() != null) {
                ctx.say(String.format(Locale.ROOT, "  read mix: %,.0f/s of %,.0f asked, p99 %.1f ms, %d wrong, "
                                + "%d errors, %d dropped", r.readLoad().achievedRate(), r.readLoad().askedRate(),
                        r.readLoad().p99Ms(), r.readLoad().wrong(), r.readLoad().errors(), r.readLoad().dropped()));
            }
            if (commits != null) {
                ctx.say("  " + commits.describe());
            }
            runs.add(r);
            views.awaitCaughtUp(started.serviceUrl(), model, base, base + model.changesApplied() - before,
                    Duration.ofMinutes(10), "catching up");
        }
        return FreshnessFigures.of(s.freshnessRate(), runs);
    }

    /**
     * One round of the read mix: each class as often as {@link #READ_MIX} says, spread over the round (weighted
     * round robin), so that no class comes in bursts.
     */
    static List<Query.Workload> interleaved(List<Query.Workload> classes) {
        List<Query.Workload> round = new ArrayList<>();
        int most = classes.stream().mapToInt(w -> READ_MIX.getOrDefault(w.queryClass(), 1)).max().orElse(0);
        for (int pass = 0; pass < most; pass++) {
            for (Query.Workload w : classes) {
                if (pass < READ_MIX.getOrDefault(w.queryClass(), 1)) {
                    round.add(w);
                }
            }
        }
        return round;
    }

    private void say(String view, ViewFreshness f) {
        ctx.say(String.format(Locale.ROOT, "  %s: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d probes, %d not visible "
                + "within 10 s, %d superseded, %d errors)", view, f.p50Ms(), f.p99Ms(), f.maxMs(), f.probes(),
                f.timeouts(), f.superseded(), f.errors()));
    }
}
