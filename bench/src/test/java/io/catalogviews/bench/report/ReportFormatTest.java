package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.peer.PgSchema;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.BrokerProcess;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.DeepPage;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.results.Machine;
import io.catalogviews.bench.results.MemoryFigures;
import io.catalogviews.bench.results.PostgresIngest;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.results.RunSettings;
import io.catalogviews.bench.results.ServiceProcess;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
        Report.write(dir, full(), settings(true, List.of(16), List.of(QueryClass.values()), null, true));

        assertSameReport("full");
    }

    @Test
    void shouldWriteTheRecordedReportWhenRunAgainstADeploymentWithoutPeers() throws IOException {
        Report.write(dir, external(), settings(false, List.of(16, 64),
                List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE), "http://catalog:8080", false));

        assertSameReport("external");
    }

    @Test
    void shouldWriteTheRecordedReportWhenTheRestoreFailedHalfway() throws IOException {
        Report.write(dir, failedRestore(), settings(true, List.of(16),
                List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false));

        assertSameReport("failed-restore");
    }

    @Test
    void shouldReturnTheResultsItWroteWhenWritingTheReport() throws IOException {
        BenchResults written = Report.write(dir, failedRestore(), settings(true, List.of(16),
                List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false));

        assertThat(written.wrongAnswers()).isEqualTo(2);
        assertThat(written.errors()).isZero();
        assertThat(written.restore().error()).startsWith("java.lang.IllegalStateException");
        assertThat(JsonCheck.MAPPER.readTree(dir.resolve("results.json").toFile()))
                .isEqualTo(JsonCheck.MAPPER.readTree(JsonCheck.MAPPER.writeValueAsString(written)));
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

    private static final List<String> JVM = List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC");

    private static BenchResults results(BenchSettings s, BrokerProcess broker, ServiceProcess service,
                                        LoadFigures load, PostgresIngest ingest, PostgresSetup postgres,
                                        List<DeepPage> deep, Freshness.Result freshness, ChurnFigures churn,
                                        MemoryFigures memory, RestoreFigures restore, List<LoadResult> runs) {
        Machine machine = new Machine(2, 7940L, "Linux 6.1.0", "OpenJDK 64-Bit Server VM 17.0.13",
                "Intel(R) Xeon(R) CPU @ 2.20GHz", "load client, service, broker and PostgreSQL all share these cores");
        return new BenchResults(RunSettings.of(s), machine, broker, service, load, ingest, postgres, deep, freshness,
                churn, memory, restore, runs, null, null, null, null, null);
    }

    private static LoadResult run(String target, QueryClass c, int concurrency, double throughput, long wrong,
                                  double bytes) {
        long ok = Math.round(throughput * 2);
        List<String> samples = wrong == 0 ? List.of() : List.of("GET /v1/products/p-0000042: $.version is 3, "
                + "expected 4");
        return new LoadResult(target, c.key, concurrency, 2.0, ok, wrong, 0, throughput, 0.5 + throughput / 1e5,
                0.9 + throughput / 1e5, 1.5 + throughput / 1e5, 12.25, bytes, 0.8, 0.6, 0.05, samples);
    }

    private static LoadFigures load(boolean passThrough) {
        LoadFigures load = LoadFigures.of(20_000, 5_000, 1.25, 2.5);
        return passThrough ? load.withPassThrough(40_000) : load;
    }

    private static RestoreFigures.Changelogs changelogs() {
        Map<String, Long> topics = new TreeMap<>();
        topics.put("catalog-views-bench-category-rows-changelog", 31_000L);
        topics.put("catalog-views-bench-products-changelog", 26_000L);
        return new RestoreFigures.Changelogs(20_000, topics, 57_000, RestoreFigures.Changelogs.NOTE, 48.5);
    }

    private static BrokerProcess broker() {
        return new BrokerProcess("localhost:40123", 1001);
    }

    private static ServiceProcess service() {
        return new ServiceProcess("http://127.0.0.1:40125", 1002, JVM, 64);
    }

    static BenchResults full() {
        BenchSettings s = settings(true, List.of(16), List.of(QueryClass.values()), null, true);
        List<ChurnFigures.Row> rows = new ArrayList<>();
        for (QueryClass c : List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE)) {
            rows.add(ChurnFigures.Row.of(c.key, throughput(c), throughput(c) * 0.9, 19_000.0, 20_000.0));
        }
        RestoreFigures.Timing timing = new RestoreFigures.Timing(1.5, 6.25, 6.5, 7.0, 5.5, 20_000 / 7.0, 35.0, 31.25,
                57_000 / 6.25, 56_000, 1, "lag Lag[input=0, repartition=12, inputCommitted=25000]",
                RestoreFigures.Timing.NOTE);
        RestoreFigures.Verification verification = new RestoreFigures.Verification(
                java.util.Arrays.stream(QueryClass.values()).map(c -> c.key).toList(), 4, 1.0, 12_345, 0, 0);
        return results(s, broker(), service(), load(true),
                PostgresIngest.of(25_000, 5.0, PgSchema.BATCH, 10_000.0),
                new PostgresSetup("jdbc:postgresql://127.0.0.1:40130/postgres?reWriteBatchedInserts=true", 16,
                        PgSchema.DDL),
                List.of(new DeepPage("electronics", 73, 4320), new DeepPage("home", 40, 2340),
                        new DeepPage("fashion", 27, 1560)),
                new Freshness.Result("product view (GET /v1/products/{id})", 1000, 998.5, 4993, 500, 0, 1, 12.5,
                        40.25, 95.5, 180.0),
                new ChurnFigures(10_000, 2.0, 5_000.0, rows),
                new MemoryFigures(64, 64, 612.5, JVM),
                new RestoreFigures(null, changelogs(), 1.75, timing, verification, 47.0, 590.25, null),
                fullRuns());
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

    static BenchResults external() {
        BenchSettings s = settings(false, List.of(16, 64), List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE),
                "http://catalog:8080", false);
        ChurnFigures churn = new ChurnFigures(10_000, 4.0, 2_500.0,
                List.of(ChurnFigures.Row.of(QueryClass.CATEGORY_PRICE.key, 8_000.0, 7_000.0, null, null)));
        List<LoadResult> runs = List.of(run(Report.SERVICE, QueryClass.GET_BY_ID, 16, 9_000, 0, 450),
                run(Report.SERVICE, QueryClass.GET_BY_ID, 64, 11_000, 0, 450),
                run(Report.SERVICE, QueryClass.CATEGORY_PRICE, 16, 8_000, 0, 27_000),
                run(Report.SERVICE, QueryClass.CATEGORY_PRICE, 64, 8_500, 0, 27_000),
                run(Report.SERVICE + "/after-churn", QueryClass.CATEGORY_PRICE, 16, 7_000, 0, 27_000));
        return results(s, null, new ServiceProcess("http://catalog:8080", -1, JVM, 64), load(false), null, null,
                List.of(new DeepPage("electronics", 1000, 59_940)), null, churn, new MemoryFigures(64, 0, null, JVM),
                RestoreFigures.skipped("--url: a deployment the harness did not start"), runs);
    }

    static BenchResults failedRestore() {
        BenchSettings s = settings(true, List.of(16), List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false);
        ChurnFigures churn = new ChurnFigures(10_000, 2.0, 5_000.0,
                List.of(ChurnFigures.Row.of(QueryClass.DEEP_PAGE.key, null, 3_000.0, 18_000.0, null)));
        List<LoadResult> runs = List.of(run(Report.SERVICE, QueryClass.GET_BY_ID, 16, 9_000, 2, 450),
                run(Report.CEILING, QueryClass.GET_BY_ID, 16, 20_000, 0, 450),
                run(Report.CEILING, QueryClass.DEEP_PAGE, 16, 18_500, 0, 27_000),
                run(Report.SERVICE + "/after-churn", QueryClass.DEEP_PAGE, 16, 3_000, 0, 27_000),
                run(Report.CEILING + "/after-churn", QueryClass.DEEP_PAGE, 16, 18_000, 0, 27_000));
        return results(s, broker(), service(), load(true), null, null, List.of(new DeepPage("electronics", 73, 4320)),
                new Freshness.Result("product view (GET /v1/products/{id})", 1000, 640.0, 3200, 320, 3, 0, 30.0,
                        180.0, 260.5, 10_000.0),
                churn, new MemoryFigures(64, 0, 700.0, JVM),
                RestoreFigures.failed(changelogs(), 1.75, null, null,
                        "java.lang.IllegalStateException: the restored service exited; log:\nOutOfMemoryError"),
                runs);
    }
}
