package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.SummaryRow;
import io.catalogviews.bench.results.TargetCheck;
import io.catalogviews.bench.service.Freshness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Writes {@code results.json}, {@code summary.md} and the SVG charts of one run. */
public final class Report {

    public static final String SERVICE = "catalog-views";
    public static final String CEILING = "http-ceiling";
    public static final String PG_HTTP = "postgres-http";
    public static final String PG_JDBC = "postgres-jdbc";

    private Report() {
    }

    /** Writes the report of {@code measured} (every phase's figures and every query run); returns it completed. */
    public static BenchResults write(Path dir, BenchResults measured, BenchSettings s) throws IOException {
        List<LoadResult> runs = measured.queries();
        List<SummaryRow> summary = summary(runs, s);
        BenchResults results = measured.withReport(summary, targets(measured, runs, s));
        Files.createDirectories(dir);
        JsonCheck.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), results);
        Files.writeString(dir.resolve("throughput.svg"), Charts.throughput(summary, s.headlineConcurrency()));
        Files.writeString(dir.resolve("latency.svg"), Charts.latency(runs, s.headlineConcurrency()));
        Files.writeString(dir.resolve("summary.md"), Markdown.summary(results, s));
        return results;
    }

    /** One row per class and concurrency: the service beside the ceiling and PostgreSQL. */
    static List<SummaryRow> summary(List<LoadResult> runs, BenchSettings s) {
        List<SummaryRow> rows = new ArrayList<>();
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                Optional<LoadResult> service = find(runs, SERVICE, c.key, concurrency);
                if (service.isEmpty()) {
                    continue;
                }
                LoadResult r = service.get();
                SummaryRow.Ceiling ceiling = find(runs, CEILING, c.key, concurrency)
                        .map(x -> new SummaryRow.Ceiling(x.throughput(), r.throughput() / x.throughput()))
                        .orElse(null);
                SummaryRow.PostgresHttp pgHttp = find(runs, PG_HTTP, c.key, concurrency)
                        .map(x -> new SummaryRow.PostgresHttp(x.throughput(), x.p99Ms(),
                                r.throughput() / x.throughput(), x.wrong()))
                        .orElse(null);
                SummaryRow.PostgresJdbc pgJdbc = find(runs, PG_JDBC, c.key, concurrency)
                        .map(x -> new SummaryRow.PostgresJdbc(x.throughput(), x.p99Ms(),
                                r.throughput() / x.throughput(), x.wrong()))
                        .orElse(null);
                rows.add(new SummaryRow(c.key, concurrency, r.throughput(), r.p50Ms(), r.p95Ms(), r.p99Ms(),
                        r.maxMs(), r.meanBytes(), r.wrong(), r.errors(), r.serverCpuCores(), r.clientCpuCores(),
                        r.otherCpuCores(), ceiling, pgHttp, pgJdbc));
            }
        }
        return rows;
    }

    static Optional<LoadResult> find(List<LoadResult> runs, String target, String cls, int concurrency) {
        return runs.stream().filter(r -> r.target().equals(target) && r.queryClass().equals(cls)
                && r.concurrency() == concurrency).findFirst();
    }

    /** The targets, each with the measured figure and whether it is met (null: not measured). */
    static List<TargetCheck> targets(BenchResults results, List<LoadResult> runs, BenchSettings s) {
        List<TargetCheck> t = new ArrayList<>();
        int c = s.headlineConcurrency();
        Optional<LoadResult> get = find(runs, SERVICE, QueryClass.GET_BY_ID.key, c);
        Optional<LoadResult> getCeiling = find(runs, CEILING, QueryClass.GET_BY_ID.key, c);
        if (get.isPresent() && getCeiling.isPresent()) {
            double f = get.get().throughput() / getCeiling.get().throughput();
            t.add(new TargetCheck("get by id ≥ 60 % of the HTTP ceiling (c=" + c + ")", pct(f), f >= 0.6));
        }
        Optional<LoadResult> get16 = find(runs, SERVICE, QueryClass.GET_BY_ID.key, 16);
        get16.ifPresent(r -> t.add(new TargetCheck("get by id p99 ≤ 5 ms at 16 clients", fmt(r.p99Ms()) + " ms",
                r.p99Ms() <= 5)));
        Optional<LoadResult> page = find(runs, SERVICE, QueryClass.CATEGORY_PRICE.key, c);
        Optional<LoadResult> pageCeiling = find(runs, CEILING, QueryClass.CATEGORY_PRICE.key, c);
        if (page.isPresent() && pageCeiling.isPresent()) {
            double f = page.get().throughput() / pageCeiling.get().throughput();
            t.add(new TargetCheck("category page ≥ 40 % of the ceiling (c=" + c + ")", pct(f), f >= 0.4));
        }
        for (String pg : List.of(PG_HTTP, PG_JDBC)) {
            Optional<LoadResult> p = find(runs, pg, QueryClass.CATEGORY_PRICE.key, c);
            if (page.isPresent() && p.isPresent()) {
                double ratio = page.get().throughput() / p.get().throughput();
                t.add(new TargetCheck("category page ≥ 3× PostgreSQL (" + pg + ", c=" + c + ")", fmt(ratio) + "×",
                        ratio >= 3));
            }
        }
        find(runs, SERVICE, QueryClass.BATCH_100.key, c).ifPresent(r -> t.add(new TargetCheck(
                "batch of 100 ≥ 200 000 verified products/s (c=" + c + ")",
                String.format(Locale.ROOT, "%,.0f products/s", r.throughput() * 100), r.throughput() * 100 >= 200_000)));
        if (results.load() != null) {
            double rate = results.load().materializedPerSecond();
            t.add(new TargetCheck("materialize ≥ 50 000 events/s (exactly_once_v2, broker on this machine)",
                    String.format(Locale.ROOT, "%,.0f events/s", rate), rate >= 50_000));
        }
        Freshness.Result f = results.freshness();
        if (f != null) {
            t.add(new TargetCheck("freshness p99 ≤ 250 ms at " + (int) f.rate() + " updates/s (product view)",
                    fmt(f.p99Ms()) + " ms", f.p99Ms() <= 250 && f.timeouts() == 0));
        }
        Optional<LoadResult> one = find(runs, SERVICE, QueryClass.PAGE_ONE.key, c);
        Optional<LoadResult> deep = find(runs, SERVICE, QueryClass.DEEP_PAGE.key, c);
        if (one.isPresent() && deep.isPresent()) {
            double cost = one.get().throughput() / deep.get().throughput();
            t.add(new TargetCheck("deep page within 1.2× the cost of page 1 (c=" + c + ")", fmt(cost) + "×",
                    cost <= 1.2));
        }
        if (results.churn() != null) {
            for (ChurnFigures.Row row : results.churn().classes()) {
                if (row.ratio() != null) {
                    Double normalized = row.ratioOfCeilingFractions();
                    boolean met = normalized != null ? normalized >= 0.9 : row.ratio() >= 0.9;
                    t.add(new TargetCheck("after churn ≥ 90 % of the throughput before it (" + row.queryClass() + ")",
                            pct(row.ratio()) + (normalized != null ? " raw, " + pct(normalized) + " as fractions of "
                                    + "the ceiling measured before and after" : ""), met));
                }
            }
        }
        return t;
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f %%", f * 100);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.2f", v);
    }
}
