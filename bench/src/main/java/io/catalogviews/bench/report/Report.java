package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.Stats;
import io.catalogviews.bench.results.SummaryRow;
import io.catalogviews.bench.results.TargetCheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

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
        BenchResults results = measured.withReport(summary, targets(measured, summary, s),
                IssueTargets.of(measured, summary, s));
        Files.createDirectories(dir);
        JsonCheck.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), results);
        Files.writeString(dir.resolve("throughput.svg"), Charts.throughput(summary, s.headlineConcurrency()));
        Files.writeString(dir.resolve("latency.svg"), Charts.latency(runs, s.headlineConcurrency()));
        Files.writeString(dir.resolve("summary.md"), Markdown.summary(results, s));
        return results;
    }

    /**
     * One row per class and concurrency: the service beside the ceiling and PostgreSQL, each figure the median of
     * the runs, each ratio the median of the ratios of runs measured back to back (run k of both targets).
     */
    static List<SummaryRow> summary(List<LoadResult> runs, BenchSettings s) {
        List<SummaryRow> rows = new ArrayList<>();
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                List<LoadResult> service = runsOf(runs, SERVICE, c.key, concurrency);
                if (service.isEmpty()) {
                    continue;
                }
                List<LoadResult> ceilingRuns = runsOf(runs, CEILING, c.key, concurrency);
                List<LoadResult> httpRuns = runsOf(runs, PG_HTTP, c.key, concurrency);
                List<LoadResult> jdbcRuns = runsOf(runs, PG_JDBC, c.key, concurrency);
                List<Double> fractions = ratios(service, ceilingRuns);
                List<Double> toHttp = ratios(service, httpRuns);
                List<Double> toJdbc = ratios(service, jdbcRuns);
                SummaryRow.Ceiling ceiling = ceilingRuns.isEmpty() ? null
                        : new SummaryRow.Ceiling(median(ceilingRuns, LoadResult::throughput), Stats.median(fractions));
                SummaryRow.PostgresHttp pgHttp = httpRuns.isEmpty() ? null
                        : new SummaryRow.PostgresHttp(median(httpRuns, LoadResult::throughput),
                        median(httpRuns, LoadResult::p99Ms), Stats.median(toHttp), sum(httpRuns, LoadResult::wrong));
                SummaryRow.PostgresJdbc pgJdbc = jdbcRuns.isEmpty() ? null
                        : new SummaryRow.PostgresJdbc(median(jdbcRuns, LoadResult::throughput),
                        median(jdbcRuns, LoadResult::p99Ms), Stats.median(toJdbc), sum(jdbcRuns, LoadResult::wrong));
                SummaryRow.Spread spread = new SummaryRow.Spread(service.size(),
                        min(service, LoadResult::throughput), max(service, LoadResult::throughput),
                        min(service, LoadResult::p99Ms), max(service, LoadResult::p99Ms),
                        max(service, LoadResult::maxMs), orNull(fractions, Stats::min), orNull(fractions, Stats::max),
                        orNull(toHttp, Stats::min), orNull(toHttp, Stats::max), orNull(toJdbc, Stats::min),
                        orNull(toJdbc, Stats::max), median(service, LoadResult::clientCpuMicrosPerRequest),
                        clientCost(ceilingRuns), clientCost(httpRuns), clientCost(jdbcRuns));
                rows.add(new SummaryRow(c.key, concurrency, median(service, LoadResult::throughput),
                        median(service, LoadResult::p50Ms), median(service, LoadResult::p95Ms),
                        median(service, LoadResult::p99Ms), median(service, LoadResult::maxMs),
                        median(service, LoadResult::meanBytes), sum(service, LoadResult::wrong),
                        sum(service, LoadResult::errors), median(service, LoadResult::serverCpuCores),
                        median(service, LoadResult::clientCpuCores), median(service, LoadResult::otherCpuCores),
                        ceiling, pgHttp, pgJdbc, spread));
            }
        }
        return rows;
    }

    /** The runs of {@code target} for a class and concurrency, in the order measured. */
    static List<LoadResult> runsOf(List<LoadResult> runs, String target, String cls, int concurrency) {
        return runs.stream().filter(r -> r.target().equals(target) && r.queryClass().equals(cls)
                && r.concurrency() == concurrency).toList();
    }

    /** {@code a}'s throughput over {@code b}'s, run k with run k. */
    private static List<Double> ratios(List<LoadResult> a, List<LoadResult> b) {
        List<Double> out = new ArrayList<>();
        for (LoadResult x : a) {
            b.stream().filter(y -> y.run() == x.run() && y.throughput() > 0).findFirst()
                    .ifPresent(y -> out.add(x.throughput() / y.throughput()));
        }
        return out;
    }

    private static double median(List<LoadResult> runs, ToDoubleFunction<LoadResult> f) {
        return Stats.median(runs.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static double min(List<LoadResult> runs, ToDoubleFunction<LoadResult> f) {
        return Stats.min(runs.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static double max(List<LoadResult> runs, ToDoubleFunction<LoadResult> f) {
        return Stats.max(runs.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static long sum(List<LoadResult> runs, java.util.function.ToLongFunction<LoadResult> f) {
        return runs.stream().mapToLong(f).sum();
    }

    private static Double orNull(List<Double> values, Function<List<Double>, Double> f) {
        return values.isEmpty() ? null : f.apply(values);
    }

    private static Double clientCost(List<LoadResult> runs) {
        return runs.isEmpty() ? null : median(runs, LoadResult::clientCpuMicrosPerRequest);
    }

    static Optional<SummaryRow> row(List<SummaryRow> summary, QueryClass c, int concurrency) {
        return summary.stream().filter(r -> r.queryClass().equals(c.key) && r.concurrency() == concurrency)
                .findFirst();
    }

    /** The targets of issue 5, each with the measured figure and whether it is met (left out: not measured). */
    static List<TargetCheck> targets(BenchResults results, List<SummaryRow> summary, BenchSettings s) {
        List<TargetCheck> t = new ArrayList<>();
        int c = s.headlineConcurrency();
        row(summary, QueryClass.GET_BY_ID, c).filter(r -> r.ceiling() != null).ifPresent(r -> {
            double f = r.ceiling().fractionOfCeiling();
            t.add(new TargetCheck("get by id ≥ 60 % of the HTTP ceiling (c=" + c + ")", pct(f), f >= 0.6));
        });
        row(summary, QueryClass.GET_BY_ID, 16).ifPresent(r -> t.add(new TargetCheck(
                "get by id p99 ≤ 5 ms at 16 clients", fmt(r.p99Ms()) + " ms", r.p99Ms() <= 5)));
        Optional<SummaryRow> page = row(summary, QueryClass.CATEGORY_PRICE, c);
        page.filter(r -> r.ceiling() != null).ifPresent(r -> {
            double f = r.ceiling().fractionOfCeiling();
            t.add(new TargetCheck("category page ≥ 40 % of the ceiling (c=" + c + ")", pct(f), f >= 0.4));
        });
        page.filter(r -> r.postgresHttp() != null).ifPresent(r -> {
            double ratio = r.postgresHttp().ratioToPostgresHttp();
            t.add(new TargetCheck("category page ≥ 3× PostgreSQL (" + PG_HTTP + ", c=" + c + ")", fmt(ratio) + "×",
                    ratio >= 3));
        });
        page.filter(r -> r.postgresJdbc() != null).ifPresent(r -> {
            double ratio = r.postgresJdbc().ratioToPostgresJdbc();
            t.add(new TargetCheck("category page ≥ 3× PostgreSQL (" + PG_JDBC + ", c=" + c + ")", fmt(ratio) + "×",
                    ratio >= 3));
        });
        row(summary, QueryClass.BATCH_100, c).ifPresent(r -> t.add(new TargetCheck(
                "batch of 100 ≥ 200 000 verified products/s (c=" + c + ")",
                String.format(Locale.ROOT, "%,.0f products/s", r.throughput() * 100), r.throughput() * 100 >= 200_000)));
        if (results.load() != null) {
            double rate = results.load().materializedPerSecond();
            t.add(new TargetCheck("materialize ≥ 50 000 events/s (exactly_once_v2, broker on this machine)",
                    String.format(Locale.ROOT, "%,.0f events/s", rate), rate >= 50_000));
        }
        FreshnessFigures f = results.freshness();
        if (f != null) {
            t.add(new TargetCheck("freshness p99 ≤ 250 ms at " + (int) f.rate() + " updates/s (product view)",
                    fmt(f.p99Ms()) + " ms", f.p99Ms() <= 250 && f.timeouts() == 0));
        }
        Optional<SummaryRow> one = row(summary, QueryClass.PAGE_ONE, c);
        Optional<SummaryRow> deep = row(summary, QueryClass.DEEP_PAGE, c);
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
