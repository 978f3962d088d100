package io.catalogviews.bench.report;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.ChangelogWrites;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.IssueTarget;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.results.SummaryRow;
import io.catalogviews.bench.results.ViewFreshness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The targets of issues 14 (reads at the HTTP ceiling, ahead of PostgreSQL) and 15 (writes applied faster, fresher,
 * rebuilt faster), judged on this run's figures: medians over {@code --runs} with their [min, max]. A target whose
 * class or phase did not run is "not measured"; the issues set them for 1 000 000 products, which summary.md says
 * beside the table.
 */
final class IssueTargets {

    private static final int CLIENTS = 16;

    private IssueTargets() {
    }

    static List<IssueTarget> of(BenchResults results, List<SummaryRow> summary, BenchSettings s) {
        List<IssueTarget> t = new ArrayList<>();
        int c = s.concurrencies().contains(CLIENTS) ? CLIENTS : s.headlineConcurrency();
        reads(t, summary, c);
        writes(t, results, s);
        return t;
    }

    private static void reads(List<IssueTarget> t, List<SummaryRow> summary, int c) {
        String at = " (c=" + c + ")";
        Optional<SummaryRow> get = Report.row(summary, QueryClass.GET_BY_ID, c);
        fraction(t, get, "get by id ≥ 60 % of the HTTP ceiling of the same body size" + at, 0.6);
        String p99 = "get by id p99 ≤ 5 ms at " + c + " connections";
        t.add(get.map(r -> IssueTarget.judged(14, p99, range(r.p99Ms(), r.spread().p99MsMin(),
                r.spread().p99MsMax(), "%.2f") + " ms", r.p99Ms() <= 5)).orElse(IssueTarget.notMeasured(14, p99)));
        String stall = "get by id: no stall over 50 ms at " + c + " connections";
        t.add(get.map(r -> IssueTarget.judged(14, stall, String.format(Locale.ROOT, "max %.1f ms",
                r.spread().maxMsMax()), r.spread().maxMsMax() <= 50)).orElse(IssueTarget.notMeasured(14, stall)));
        Optional<SummaryRow> page = Report.row(summary, QueryClass.CATEGORY_PRICE, c);
        fraction(t, page, "category page (brand, price range, sort=price, 60) ≥ 40 % of the ceiling" + at, 0.4);
        timesPostgres(t, page, "category page ≥ 3× PostgreSQL behind the same HTTP" + at);
        timesPostgres(t, Report.row(summary, QueryClass.CATEGORY_UPDATED, c),
                "the same page sorted by -updatedAt ≥ 3× PostgreSQL behind the same HTTP" + at);
        timesPostgres(t, Report.row(summary, QueryClass.CATEGORY_PRICE_DESC, c),
                "the same page sorted by -price ≥ 3× PostgreSQL behind the same HTTP" + at);
        Optional<SummaryRow> deep = Report.row(summary, QueryClass.DEEP_PAGE, c);
        timesPostgres(t, deep, "page 1 000 ≥ 3× PostgreSQL behind the same HTTP" + at);
        Optional<SummaryRow> one = Report.row(summary, QueryClass.PAGE_ONE, c);
        String cost = "page 1 000 costs ≤ 1.2× page 1" + at;
        if (one.isPresent() && deep.isPresent()) {
            double ratio = one.get().throughput() / deep.get().throughput();
            t.add(IssueTarget.judged(14, cost, String.format(Locale.ROOT, "%.2f×", ratio), ratio <= 1.2));
        } else {
            t.add(IssueTarget.notMeasured(14, cost));
        }
        timesPostgres(t, Report.row(summary, QueryClass.CATALOG_PAGE, c),
                "whole-catalog page ≥ 3× PostgreSQL behind the same HTTP" + at);
        timesPostgres(t, Report.row(summary, QueryClass.FACETS, c),
                "facets ≥ 3× PostgreSQL with its own facet set-up (maintained counts), same HTTP" + at);
        String batch = "batch of 100 ids ≥ 200 000 verified products/s" + at;
        t.add(Report.row(summary, QueryClass.BATCH_100, c).map(r -> IssueTarget.judged(14, batch,
                range(r.throughput() * 100, r.spread().throughputMin() * 100, r.spread().throughputMax() * 100,
                        "%,.0f") + " products/s", r.throughput() * 100 >= 200_000))
                .orElse(IssueTarget.notMeasured(14, batch)));
    }

    private static void writes(List<IssueTarget> t, BenchResults results, BenchSettings s) {
        MaterializedRuns products = results.load() == null ? null : results.load().newProducts();
        rate(t, products, "materialized ≥ 15 000 events/s, a load of new products (exactly-once)");
        MaterializedRuns changes = results.churn() != null && results.churn().materialized() != null
                ? results.churn().materialized() : results.load() == null ? null : results.load().changes();
        rate(t, changes, "materialized ≥ 15 000 events/s, a churn of price/stock changes (exactly-once)");
        FreshnessFigures f = results.freshness();
        String with = f == null ? " with the read mix"
                : f.readLoad() != null
                ? String.format(Locale.ROOT, " with the read mix at %.0f requests/s", f.readLoad().askedRate())
                : " (no read mix)";
        String rate = f == null ? String.format(Locale.ROOT, "%.0f", s.freshnessRate())
                : String.format(Locale.ROOT, "%.0f", f.rate());
        freshness(t, f == null ? null : f.productView(), "publish → visible p99 ≤ 250 ms at " + rate
                + " changes/s, product view" + with);
        freshness(t, f == null ? null : f.categoryPages(), "publish → visible p99 ≤ 250 ms at " + rate
                + " changes/s, category pages" + with);
        RestoreFigures restore = results.restore();
        String rebuild = "rebuild of an instance from the changelogs ≤ 5 s per 100 000 products";
        if (restore != null && restore.timing() != null) {
            RestoreFigures.Timing timing = restore.timing();
            t.add(IssueTarget.judged(15, rebuild, String.format(Locale.ROOT, "%.1f s (ready after %.1f s)",
                    timing.secondsPer100kProducts(), timing.readySecondsPer100kProducts()),
                    timing.secondsPer100kProducts() <= 5));
        } else {
            t.add(IssueTarget.notMeasured(15, rebuild));
        }
        String bytes = "changelog bytes written per applied change (reported, to be reduced)";
        ChangelogWrites changelog = results.churn() == null ? null : results.churn().changelog();
        t.add(changelog == null ? IssueTarget.notMeasured(15, bytes) : new IssueTarget(15, bytes,
                String.format(Locale.ROOT, "%,.0f bytes (%.1f changelog offsets) per change",
                        changelog.bytesPerChange(), changelog.offsetsPerChange()), IssueTarget.REPORTED));
    }

    private static void fraction(List<IssueTarget> t, Optional<SummaryRow> row, String target, double threshold) {
        t.add(row.filter(r -> r.ceiling() != null).map(r -> IssueTarget.judged(14, target,
                        range(100 * r.ceiling().fractionOfCeiling(), 100 * r.spread().fractionOfCeilingMin(),
                                100 * r.spread().fractionOfCeilingMax(), "%.0f") + " %",
                        r.ceiling().fractionOfCeiling() >= threshold))
                .orElse(IssueTarget.notMeasured(14, target)));
    }

    private static void timesPostgres(List<IssueTarget> t, Optional<SummaryRow> row, String target) {
        t.add(row.filter(r -> r.postgresHttp() != null).map(r -> IssueTarget.judged(14, target,
                        range(r.postgresHttp().ratioToPostgresHttp(), r.spread().ratioToPostgresHttpMin(),
                                r.spread().ratioToPostgresHttpMax(), "%.2f") + "×",
                        r.postgresHttp().ratioToPostgresHttp() >= 3))
                .orElse(IssueTarget.notMeasured(14, target)));
    }

    private static void rate(List<IssueTarget> t, MaterializedRuns m, String target) {
        t.add(m == null ? IssueTarget.notMeasured(15, target) : IssueTarget.judged(15, target,
                range(m.medianPerSecond(), m.minPerSecond(), m.maxPerSecond(), "%,.0f") + " events/s",
                m.medianPerSecond() >= 15_000));
    }

    private static void freshness(List<IssueTarget> t, ViewFreshness v, String target) {
        if (v == null) {
            t.add(IssueTarget.notMeasured(15, target));
            return;
        }
        String figure = range(v.p99Ms(), v.p99MsMin(), v.p99MsMax(), "%,.0f") + " ms"
                + (v.timeouts() > 0 ? String.format(Locale.ROOT, ", %d of %d not visible within 10 s", v.timeouts(),
                v.probes()) : "");
        t.add(IssueTarget.judged(15, target, figure, v.p99Ms() <= 250 && v.timeouts() == 0));
    }

    /** {@code median [min–max]}, or the median alone when the runs agree (one run). */
    static String range(double median, Double min, Double max, String format) {
        String m = String.format(Locale.ROOT, format, median);
        if (min == null || max == null || min.equals(max)) {
            return m;
        }
        return m + " [" + String.format(Locale.ROOT, format, min) + "–" + String.format(Locale.ROOT, format, max)
                + "]";
    }
}
