package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Writes {@code results.json}, {@code summary.md} and the SVG charts of one run. */
public final class Report {

    public static final String SERVICE = "catalog-views";
    public static final String CEILING = "http-ceiling";
    public static final String PG_HTTP = "postgres-http";
    public static final String PG_JDBC = "postgres-jdbc";

    private Report() {
    }

    public static Map<String, Object> settings(BenchSettings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("profile", s.quick() ? "quick" : "full");
        m.put("products", s.products());
        m.put("updates", s.updates());
        m.put("warmupSeconds", s.warmup().toMillis() / 1000.0);
        m.put("durationSeconds", s.duration().toMillis() / 1000.0);
        m.put("concurrencies", s.concurrencies());
        m.put("classes", s.classes().stream().map(c -> c.key).toList());
        m.put("externalKafka", s.bootstrapServers() != null);
        m.put("externalService", s.serviceUrl() != null);
        m.put("partitions", s.partitions());
        m.put("rocksDbMemoryMb", s.rocksDbMemoryMb());
        m.put("postgres", s.postgres());
        m.put("churnUpdates", s.churnUpdates());
        m.put("freshnessRate", s.freshnessRate());
        m.put("freshnessSeconds", s.freshnessDuration().toSeconds());
        m.put("restore", s.restore());
        m.put("seed", s.seed());
        return m;
    }

    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            m.put("memoryMb", os.getTotalMemorySize() / (1024 * 1024));
        }
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        try {
            Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name")).findFirst()
                    .ifPresent(l -> m.put("cpu", l.substring(l.indexOf(':') + 1).trim()));
        } catch (IOException e) {
            // not on Linux
        }
        m.put("note", "load client, service, broker and PostgreSQL all share these cores");
        return m;
    }

    public static void write(Path dir, Map<String, Object> results, List<LoadResult> runs, BenchSettings s)
            throws IOException {
        List<Map<String, Object>> summary = summary(runs, s);
        results.put("summary", summary);
        results.put("targets", targets(results, runs, s));
        long wrong = runs.stream().mapToLong(LoadResult::wrong).sum();
        long errors = runs.stream().mapToLong(LoadResult::errors).sum();
        results.put("wrongAnswers", wrong);
        results.put("errors", errors);
        Files.createDirectories(dir);
        JsonCheck.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), results);
        Files.writeString(dir.resolve("throughput.svg"), Charts.throughput(summary, s.headlineConcurrency()));
        Files.writeString(dir.resolve("latency.svg"), Charts.latency(runs, s.headlineConcurrency()));
        Files.writeString(dir.resolve("summary.md"), Markdown.summary(results, summary, runs, s));
    }

    /** One row per class and concurrency: the service beside the ceiling and PostgreSQL. */
    static List<Map<String, Object>> summary(List<LoadResult> runs, BenchSettings s) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                Optional<LoadResult> service = find(runs, SERVICE, c.key, concurrency);
                if (service.isEmpty()) {
                    continue;
                }
                LoadResult r = service.get();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("class", c.key);
                row.put("concurrency", concurrency);
                row.put("throughput", r.throughput());
                row.put("p50Ms", r.p50Ms());
                row.put("p95Ms", r.p95Ms());
                row.put("p99Ms", r.p99Ms());
                row.put("maxMs", r.maxMs());
                row.put("bytes", r.meanBytes());
                row.put("wrong", r.wrong());
                row.put("errors", r.errors());
                row.put("serviceCpuCores", r.serverCpuCores());
                row.put("clientCpuCores", r.clientCpuCores());
                row.put("otherCpuCores", r.otherCpuCores());
                find(runs, CEILING, c.key, concurrency).ifPresent(x -> {
                    row.put("ceiling", x.throughput());
                    row.put("fractionOfCeiling", r.throughput() / x.throughput());
                });
                find(runs, PG_HTTP, c.key, concurrency).ifPresent(x -> {
                    row.put("postgresHttp", x.throughput());
                    row.put("postgresHttpP99Ms", x.p99Ms());
                    row.put("ratioToPostgresHttp", r.throughput() / x.throughput());
                    row.put("postgresHttpWrong", x.wrong());
                });
                find(runs, PG_JDBC, c.key, concurrency).ifPresent(x -> {
                    row.put("postgresJdbc", x.throughput());
                    row.put("postgresJdbcP99Ms", x.p99Ms());
                    row.put("ratioToPostgresJdbc", r.throughput() / x.throughput());
                    row.put("postgresJdbcWrong", x.wrong());
                });
                rows.add(row);
            }
        }
        return rows;
    }

    static Optional<LoadResult> find(List<LoadResult> runs, String target, String cls, int concurrency) {
        return runs.stream().filter(r -> r.target().equals(target) && r.queryClass().equals(cls)
                && r.concurrency() == concurrency).findFirst();
    }

    /** The targets, each with the measured figure and whether it is met (null: not measured). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> targets(Map<String, Object> results, List<LoadResult> runs, BenchSettings s) {
        List<Map<String, Object>> t = new ArrayList<>();
        int c = s.headlineConcurrency();
        Optional<LoadResult> get = find(runs, SERVICE, QueryClass.GET_BY_ID.key, c);
        Optional<LoadResult> getCeiling = find(runs, CEILING, QueryClass.GET_BY_ID.key, c);
        if (get.isPresent() && getCeiling.isPresent()) {
            double f = get.get().throughput() / getCeiling.get().throughput();
            t.add(target("get by id ≥ 60 % of the HTTP ceiling (c=" + c + ")", pct(f), f >= 0.6));
        }
        Optional<LoadResult> get16 = find(runs, SERVICE, QueryClass.GET_BY_ID.key, 16);
        get16.ifPresent(r -> t.add(target("get by id p99 ≤ 5 ms at 16 clients", fmt(r.p99Ms()) + " ms",
                r.p99Ms() <= 5)));
        Optional<LoadResult> page = find(runs, SERVICE, QueryClass.CATEGORY_PRICE.key, c);
        Optional<LoadResult> pageCeiling = find(runs, CEILING, QueryClass.CATEGORY_PRICE.key, c);
        if (page.isPresent() && pageCeiling.isPresent()) {
            double f = page.get().throughput() / pageCeiling.get().throughput();
            t.add(target("category page ≥ 40 % of the ceiling (c=" + c + ")", pct(f), f >= 0.4));
        }
        for (String pg : List.of(PG_HTTP, PG_JDBC)) {
            Optional<LoadResult> p = find(runs, pg, QueryClass.CATEGORY_PRICE.key, c);
            if (page.isPresent() && p.isPresent()) {
                double ratio = page.get().throughput() / p.get().throughput();
                t.add(target("category page ≥ 3× PostgreSQL (" + pg + ", c=" + c + ")", fmt(ratio) + "×",
                        ratio >= 3));
            }
        }
        find(runs, SERVICE, QueryClass.BATCH_100.key, c).ifPresent(r -> t.add(target(
                "batch of 100 ≥ 200 000 verified products/s (c=" + c + ")",
                String.format(Locale.ROOT, "%,.0f products/s", r.throughput() * 100), r.throughput() * 100 >= 200_000)));
        Object load = results.get("load");
        if (load instanceof Map<?, ?> l && l.get("materializedPerSecond") instanceof Double rate) {
            t.add(target("materialize ≥ 50 000 events/s (exactly_once_v2, broker on this machine)",
                    String.format(Locale.ROOT, "%,.0f events/s", rate), rate >= 50_000));
        }
        Object fresh = results.get("freshness");
        if (fresh instanceof io.catalogviews.bench.service.Freshness.Result f) {
            t.add(target("freshness p99 ≤ 250 ms at " + (int) f.rate() + " updates/s (product view)",
                    fmt(f.p99Ms()) + " ms", f.p99Ms() <= 250 && f.timeouts() == 0));
        }
        Optional<LoadResult> one = find(runs, SERVICE, QueryClass.PAGE_ONE.key, c);
        Optional<LoadResult> deep = find(runs, SERVICE, QueryClass.DEEP_PAGE.key, c);
        if (one.isPresent() && deep.isPresent()) {
            double cost = one.get().throughput() / deep.get().throughput();
            t.add(target("deep page within 1.2× the cost of page 1 (c=" + c + ")", fmt(cost) + "×", cost <= 1.2));
        }
        Object churn = results.get("churn");
        if (churn instanceof Map<?, ?> ch && ch.get("classes") instanceof List<?> rows) {
            for (Object o : rows) {
                Map<String, Object> row = (Map<String, Object>) o;
                if (row.get("ratio") instanceof Double ratio) {
                    Object normalized = row.get("ratioOfCeilingFractions");
                    boolean met = normalized instanceof Double n ? n >= 0.9 : ratio >= 0.9;
                    t.add(target("after churn ≥ 90 % of the throughput before it (" + row.get("class") + ")",
                            pct(ratio) + (normalized instanceof Double n ? " raw, " + pct(n) + " as fractions of the "
                                    + "ceiling measured before and after" : ""), met));
                }
            }
        }
        return t;
    }

    private static Map<String, Object> target(String name, String measured, boolean met) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", name);
        m.put("measured", measured);
        m.put("met", met);
        return m;
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f %%", f * 100);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.2f", v);
    }
}
