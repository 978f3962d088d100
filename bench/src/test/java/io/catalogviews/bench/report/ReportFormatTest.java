package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.peer.PgSchema;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.service.Freshness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a run (results.json, summary.md, the two charts) against files written by the harness as it was
 * before its phases were split into classes (2026-12-02): old runs stay comparable with new ones only while the
 * keys, values and layout stay the same.
 */
class ReportFormatTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheRecordedReportWhenEveryPhaseRan() throws IOException {
        Report.write(dir, full(), fullRuns(), settings(true, List.of(16), List.of(QueryClass.values()), null, true));

        assertSameReport("full");
    }

    @Test
    void shouldWriteTheRecordedReportWhenRunAgainstADeploymentWithoutPeers() throws IOException {
        Report.write(dir, external(), externalRuns(), settings(false, List.of(16, 64),
                List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE), "http://catalog:8080", false));

        assertSameReport("external");
    }

    @Test
    void shouldWriteTheRecordedReportWhenTheRestoreFailedHalfway() throws IOException {
        Report.write(dir, failedRestore(), failedRestoreRuns(), settings(true, List.of(16),
                List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false));

        assertSameReport("failed-restore");
    }

    private void assertSameReport(String name) throws IOException {
        JsonNode expected = JsonCheck.MAPPER.readTree(recorded(name, "results.json"));
        JsonNode actual = JsonCheck.MAPPER.readTree(Files.readString(dir.resolve("results.json")));
        assertThat(actual).as("results.json of %s", name).isEqualTo(expected);
        for (String file : List.of("summary.md", "throughput.svg", "latency.svg")) {
            assertThat(Files.readString(dir.resolve(file))).as("%s of %s", file, name)
                    .isEqualTo(recorded(name, file));
        }
    }

    private static String recorded(String name, String file) throws IOException {
        String resource = "recorded/" + name + "/" + file;
        try (InputStream in = ReportFormatTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("test resource %s", resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    // ------------------------------------------------------------------ fixtures

    private static BenchSettings settings(boolean quick, List<Integer> concurrencies, List<QueryClass> classes,
                                          String url, boolean postgres) {
        return new BenchSettings(quick, 20_000, 5_000, Duration.ofSeconds(1), Duration.ofSeconds(2), concurrencies,
                classes, url == null ? null : "kafka:9092", url, "catalog-views-bench", "catalog.product-events",
                12, "service.jar", "harness.jar", List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC"), 64, postgres, 16,
                url == null, 10_000, 1000, Duration.ofSeconds(5), Path.of("bench-results"), 42, false, url == null,
                true, Duration.ZERO);
    }

    private static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", 2);
        m.put("memoryMb", 7940L);
        m.put("os", "Linux 6.1.0");
        m.put("java", "OpenJDK 64-Bit Server VM 17.0.13");
        m.put("cpu", "Intel(R) Xeon(R) CPU @ 2.20GHz");
        m.put("note", "load client, service, broker and PostgreSQL all share these cores");
        return m;
    }

    private static Map<String, Object> begin(BenchSettings s) {
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("settings", Report.settings(s));
        results.put("machine", machine());
        return results;
    }

    private static LoadResult run(String target, QueryClass c, int concurrency, double throughput, long wrong,
                                  double bytes) {
        long ok = Math.round(throughput * 2);
        List<String> samples = wrong == 0 ? List.of() : List.of("GET /v1/products/p-0000042: $.version is 3, "
                + "expected 4");
        return new LoadResult(target, c.key, concurrency, 2.0, ok, wrong, 0, throughput, 0.5 + throughput / 1e5,
                0.9 + throughput / 1e5, 1.5 + throughput / 1e5, 12.25, bytes, 0.8, 0.6, 0.05, samples);
    }

    private static Map<String, Object> load(boolean passThrough) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("products", 20_000);
        load.put("updates", 5_000L);
        load.put("events", 25_000L);
        load.put("publishSeconds", 1.25);
        load.put("publishedPerSecond", 20_000.0);
        load.put("materializeSeconds", 2.5);
        load.put("materializedPerSecond", 10_000.0);
        load.put("drainAfterPublishSeconds", 1.25);
        load.put("note", "materialized = from the first send until the consumer group had no lag on the input and "
                + "repartition topics and GET /v1/categories and a sample of products agreed with the model");
        if (passThrough) {
            load.put("passThroughPerSecond", 40_000.0);
            load.put("fractionOfPassThrough", 0.25);
        }
        return load;
    }

    private static Map<String, Object> deep(String category, int page, int offset) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("category", category);
        d.put("page", page);
        d.put("offset", offset);
        return d;
    }

    private static Map<String, Object> memory(long postgresMb, Double rssMb) {
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("rocksDbBoundMb", 64L);
        memory.put("postgresSharedBuffersMb", postgresMb);
        if (rssMb != null) {
            memory.put("serviceRssMb", rssMb);
        }
        memory.put("serviceJvmOptions", List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC"));
        return memory;
    }

    private static Map<String, Object> restoreBefore() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("products", 20_000);
        Map<String, Long> changelogs = new java.util.TreeMap<>();
        changelogs.put("catalog-views-bench-category-rows-changelog", 31_000L);
        changelogs.put("catalog-views-bench-products-changelog", 26_000L);
        r.put("changelogTopics", changelogs);
        r.put("changelogOffsets", 57_000L);
        r.put("changelogNote", "end minus start offset of every partition of the application's changelog topics: "
                + "an upper bound on the records restored (exactly-once adds a transaction marker per partition and "
                + "commit; compaction may have removed records)");
        r.put("stateDirMbBefore", 48.5);
        r.put("stopSeconds", 1.75);
        return r;
    }

    static Map<String, Object> full() {
        BenchSettings s = settings(true, List.of(16), List.of(QueryClass.values()), null, true);
        Map<String, Object> results = begin(s);
        results.put("broker", Map.of("bootstrapServers", "localhost:40123", "pid", 1001L));
        results.put("service", Map.of("url", "http://127.0.0.1:40125", "pid", 1002L, "jvmOptions",
                s.serviceJvmOptions(), "rocksDbMemoryMb", 64L));
        results.put("load", load(true));
        results.put("postgresIngest", Map.of("events", 25_000L, "seconds", 5.0, "eventsPerSecond", 5_000.0, "batch",
                PgSchema.BATCH, "ratioCatalogViewsToPostgres", 2.0));
        results.put("postgres", Map.of("jdbcUrl", "jdbc:postgresql://127.0.0.1:40130/postgres?reWriteBatchedInserts"
                + "=true", "httpPool", 16, "schema", PgSchema.DDL));
        results.put("deepPages", List.of(deep("electronics", 73, 4320), deep("home", 40, 2340),
                deep("fashion", 27, 1560)));
        results.put("freshness", new Freshness.Result("product view (GET /v1/products/{id})", 1000, 998.5, 4993, 500,
                0, 1, 12.5, 40.25, 95.5, 180.0));
        Map<String, Object> churn = new LinkedHashMap<>();
        churn.put("changes", 10_000L);
        churn.put("materializeSeconds", 2.0);
        churn.put("materializedPerSecond", 5_000.0);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (QueryClass c : List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE)) {
            double before = throughput(c);
            double after = before * 0.9;
            double ceilingBefore = 20_000;
            double ceilingAfter = 19_000;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("class", c.key);
            row.put("before", before);
            row.put("after", after);
            row.put("ratio", after / before);
            row.put("ceilingAfter", ceilingAfter);
            row.put("ceilingBefore", ceilingBefore);
            row.put("fractionBefore", before / ceilingBefore);
            row.put("fractionAfter", after / ceilingAfter);
            row.put("ratioOfCeilingFractions", (after / ceilingAfter) / (before / ceilingBefore));
            rows.add(row);
        }
        churn.put("classes", rows);
        results.put("churn", churn);
        results.put("memory", memory(64, 612.5));
        Map<String, Object> r = restoreBefore();
        r.put("httpUpSeconds", 1.5);
        r.put("readySeconds", 6.25);
        r.put("clusterCaughtUpSeconds", 6.5);
        r.put("restoreSeconds", 7.0);
        r.put("restoreSecondsAfterHttpUp", 5.5);
        r.put("productsPerSecond", 20_000 / 7.0);
        r.put("secondsPer100kProducts", 35.0);
        r.put("readySecondsPer100kProducts", 31.25);
        r.put("changelogOffsetsPerSecondToReady", 57_000 / 6.25);
        r.put("maxStoreLagSeen", 56_000L);
        r.put("checksNotRightWhileCaughtUp", 1);
        r.put("firstProblemWhileCaughtUp", "lag Lag[input=0, repartition=12, inputCommitted=25000]");
        r.put("note", "times from the start of the new service process (JVM start included): readySeconds until "
                + "GET /health/ready answered 200, restoreSeconds until GET /v1/cluster said caughtUp: true, the "
                + "consumer group had no lag and GET /v1/categories and 50 sampled products equaled the model; "
                + "restoreSecondsAfterHttpUp leaves out the JVM's start (a fixed cost that dominates small catalogs)");
        Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("classes", java.util.Arrays.stream(QueryClass.values()).map(c -> c.key).toList());
        verification.put("concurrency", 4);
        verification.put("secondsPerClass", 1.0);
        verification.put("right", 12_345L);
        verification.put("wrong", 0L);
        verification.put("errors", 0L);
        r.put("verification", verification);
        r.put("stateDirMbAfter", 47.0);
        r.put("serviceRssMbAfter", 590.25);
        results.put("restore", r);
        results.put("queries", fullRuns());
        return results;
    }

    private static double throughput(QueryClass c) {
        return 1_000.0 * (10 - c.ordinal());
    }

    static List<LoadResult> fullRuns() {
        List<LoadResult> runs = new ArrayList<>();
        for (QueryClass c : QueryClass.values()) {
            runs.add(run(Report.SERVICE, c, 16, throughput(c), 0, 450 + 100 * c.ordinal()));
            runs.add(run(Report.CEILING, c, 16, 20_000, 0, 450 + 100 * c.ordinal()));
            runs.add(run(Report.PG_HTTP, c, 16, throughput(c) / 3, 0, 450 + 100 * c.ordinal()));
            runs.add(run(Report.PG_JDBC, c, 16, throughput(c) / 2, 0, 0));
        }
        for (QueryClass c : List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE)) {
            runs.add(run(Report.SERVICE + "/after-churn", c, 16, throughput(c) * 0.9, 0, 900));
            runs.add(run(Report.CEILING + "/after-churn", c, 16, 19_000, 0, 900));
        }
        for (QueryClass c : QueryClass.values()) {
            runs.add(run(Report.SERVICE + "/after-restore", c, 4, throughput(c) / 2, 0, 450));
        }
        return runs;
    }

    static Map<String, Object> external() {
        BenchSettings s = settings(false, List.of(16, 64), List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE),
                "http://catalog:8080", false);
        Map<String, Object> results = begin(s);
        results.put("service", Map.of("url", "http://catalog:8080", "pid", -1L, "jvmOptions",
                s.serviceJvmOptions(), "rocksDbMemoryMb", 64L));
        results.put("load", load(false));
        results.put("deepPages", List.of(deep("electronics", 1000, 59_940)));
        Map<String, Object> churn = new LinkedHashMap<>();
        churn.put("changes", 10_000L);
        churn.put("materializeSeconds", 4.0);
        churn.put("materializedPerSecond", 2_500.0);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("class", QueryClass.CATEGORY_PRICE.key);
        row.put("before", 8_000.0);
        row.put("after", 7_000.0);
        row.put("ratio", 7_000.0 / 8_000.0);
        churn.put("classes", List.of(row));
        results.put("churn", churn);
        results.put("memory", memory(0, null));
        results.put("restore", Map.of("skipped", "--url: a deployment the harness did not start"));
        results.put("queries", externalRuns());
        return results;
    }

    static List<LoadResult> externalRuns() {
        return List.of(run(Report.SERVICE, QueryClass.GET_BY_ID, 16, 9_000, 0, 450),
                run(Report.SERVICE, QueryClass.GET_BY_ID, 64, 11_000, 0, 450),
                run(Report.SERVICE, QueryClass.CATEGORY_PRICE, 16, 8_000, 0, 27_000),
                run(Report.SERVICE, QueryClass.CATEGORY_PRICE, 64, 8_500, 0, 27_000),
                run(Report.SERVICE + "/after-churn", QueryClass.CATEGORY_PRICE, 16, 7_000, 0, 27_000));
    }

    static Map<String, Object> failedRestore() {
        BenchSettings s = settings(true, List.of(16), List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false);
        Map<String, Object> results = begin(s);
        results.put("broker", Map.of("bootstrapServers", "localhost:40123", "pid", 1001L));
        results.put("service", Map.of("url", "http://127.0.0.1:40125", "pid", 1002L, "jvmOptions",
                s.serviceJvmOptions(), "rocksDbMemoryMb", 64L));
        results.put("load", load(true));
        results.put("deepPages", List.of(deep("electronics", 73, 4320)));
        results.put("freshness", new Freshness.Result("product view (GET /v1/products/{id})", 1000, 640.0, 3200, 320,
                3, 0, 30.0, 180.0, 260.5, 10_000.0));
        Map<String, Object> churn = new LinkedHashMap<>();
        churn.put("changes", 10_000L);
        churn.put("materializeSeconds", 2.0);
        churn.put("materializedPerSecond", 5_000.0);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("class", QueryClass.DEEP_PAGE.key);
        row.put("before", null);
        row.put("after", 3_000.0);
        row.put("ratio", null);
        row.put("ceilingAfter", 18_000.0);
        churn.put("classes", List.of(row));
        results.put("churn", churn);
        results.put("memory", memory(0, 700.0));
        Map<String, Object> r = restoreBefore();
        r.put("error", "java.lang.IllegalStateException: the restored service exited; log:\nOutOfMemoryError");
        results.put("restore", r);
        results.put("queries", failedRestoreRuns());
        return results;
    }

    static List<LoadResult> failedRestoreRuns() {
        return List.of(run(Report.SERVICE, QueryClass.GET_BY_ID, 16, 9_000, 2, 450),
                run(Report.CEILING, QueryClass.GET_BY_ID, 16, 20_000, 0, 450),
                run(Report.CEILING, QueryClass.DEEP_PAGE, 16, 18_500, 0, 27_000),
                run(Report.SERVICE + "/after-churn", QueryClass.DEEP_PAGE, 16, 3_000, 0, 27_000),
                run(Report.CEILING + "/after-churn", QueryClass.DEEP_PAGE, 16, 18_000, 0, 27_000));
    }
}
