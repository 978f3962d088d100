package io.catalogviews.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.peer.PgSchema;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.BrokerProcess;
import io.catalogviews.bench.results.BuildInfo;
import io.catalogviews.bench.results.ChangelogWrites;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.DeepPage;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.IssueTarget;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.results.Machine;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.results.MemoryFigures;
import io.catalogviews.bench.results.PostgresIngest;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.results.ReadLoadFigures;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.results.RunSettings;
import io.catalogviews.bench.results.ServiceObservation;
import io.catalogviews.bench.results.ServiceProcess;
import io.catalogviews.bench.results.SummaryRow;
import io.catalogviews.bench.results.ViewFreshness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a run (results.json, summary.md, the two charts) against recorded files: the formats as written on
 * 2026-12-02, extended since by new figures (repetitions, freshness of category pages, the write path, the
 * targets of issues 14 and 15, PostgreSQL's tuning, what the service did inside). Old runs stay comparable with new
 * ones only while results.json keeps every key and value it had: {@code first-format/} holds the first recorded
 * results, and every key and value in them must still be written.
 */
class ReportFormatTest {

    /**
     * {@code -DcatalogViews.recordReports} (with {@code -Dtest=ReportFormatTest}, from the module's directory)
     * writes today's reports over the recorded ones: for a deliberate change of the format, whose diff then shows
     * in review. The first-format check still holds.
     */
    private static final String RECORD = "catalogViews.recordReports";
    /** The classes the recorded runs measured (category-price-desc came after them). */
    static final List<QueryClass> RECORDED_CLASSES = List.of(QueryClass.GET_BY_ID, QueryClass.BATCH_100,
            QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.PAGE_ONE, QueryClass.DEEP_PAGE,
            QueryClass.FACETS, QueryClass.CATALOG_PAGE);

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheRecordedReportWhenEveryPhaseRan() throws IOException {
        Report.write(dir, full(), settings(true, List.of(16), RECORDED_CLASSES, null, true));

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
    void shouldKeepEveryKeyAndValueOfTheFirstFormatWhenFiguresWereAddedSince() throws IOException {
        Map<String, BenchResults> fixtures = Map.of("full", full(), "external", external(),
                "failed-restore", failedRestore());
        for (Map.Entry<String, BenchResults> f : fixtures.entrySet()) {
            Path out = dir.resolve(f.getKey());
            Report.write(out, f.getValue(), settingsOf(f.getKey()));
            JsonNode first = JsonCheck.MAPPER.readTree(recorded("../first-format/" + f.getKey(), "results.json"));
            JsonNode now = JsonCheck.MAPPER.readTree(out.resolve("results.json").toFile());

            assertThat(JsonCheck.difference(first, now)).as("first-format results.json of %s against today's",
                    f.getKey()).isNull();
        }
    }

    @Test
    void shouldLeadTheSummaryWithTheTargetsOfIssues14And15WhenEveryPhaseRan() throws IOException {
        BenchResults written = Report.write(dir, full(), settingsOf("full"));

        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary.indexOf("## Targets of issues 14 and 15")).as("position of the issues' table")
                .isPositive().isLessThan(summary.indexOf("Machine:"));
        assertThat(written.issueTargets()).extracting(IssueTarget::issue).containsOnly(14, 15);
        // The recorded run measured every class but category-price-desc, which came after it.
        assertThat(written.issueTargets()).hasSize(18).filteredOn(t -> !t.target().contains("-price"))
                .extracting(IssueTarget::status).doesNotContain(IssueTarget.NOT_MEASURED);
        assertThat(written.issueTargets()).filteredOn(t -> t.target().contains("-price"))
                .extracting(IssueTarget::status).containsExactly(IssueTarget.NOT_MEASURED);
    }

    @Test
    void shouldGiveEachStoresHitRatioAndMissesPerRequestWhenTheServiceCountsItsLookups() throws IOException {
        Report.write(dir, full(), settingsOf("full"));

        assertThat(Files.readString(dir.resolve("summary.md")))
                .containsPattern("\\| product-view 0\\.900 \\(0\\.\\d{3} misses/request\\) \\|");
    }

    @Test
    void shouldSayNotMeasuredWhenAPhaseOrClassDidNotRun() throws IOException {
        BenchResults written = Report.write(dir, external(), settingsOf("external"));

        assertThat(written.issueTargets()).filteredOn(t -> t.target().startsWith("facets"))
                .extracting(IssueTarget::status).containsExactly(IssueTarget.NOT_MEASURED);
        assertThat(written.issueTargets()).filteredOn(t -> t.target().startsWith("get by id p99"))
                .extracting(IssueTarget::status).containsExactly(IssueTarget.MET);
    }

    @Test
    void shouldTakeMediansAndRangesRunByRunWhenEachRunWasRepeated() throws IOException {
        BenchSettings s = settings(true, List.of(16), List.of(QueryClass.GET_BY_ID), null, false, 3);
        List<LoadResult> runs = new ArrayList<>();
        double[] service = {9_000, 12_000, 10_000};
        double[] ceiling = {20_000, 20_000, 25_000};
        for (int k = 0; k < 3; k++) {
            runs.add(run(Report.SERVICE, QueryClass.GET_BY_ID, 16, service[k], 0, 450).asRun(k + 1));
            runs.add(run(Report.CEILING, QueryClass.GET_BY_ID, 16, ceiling[k], 0, 450).asRun(k + 1));
        }
        BenchResults written = Report.write(dir, results(s, broker(), service(), null, null, null, List.of(), null,
                null, null, null, runs), s);

        SummaryRow row = written.summary().get(0);
        assertThat(row.throughput()).isEqualTo(10_000);
        assertThat(row.spread().runs()).isEqualTo(3);
        assertThat(row.spread().throughputMin()).isEqualTo(9_000);
        assertThat(row.spread().throughputMax()).isEqualTo(12_000);
        assertThat(row.ceiling().ceiling()).isEqualTo(20_000);
        assertThat(row.ceiling().fractionOfCeiling()).as("median of 0.45, 0.60, 0.40").isEqualTo(0.45);
        assertThat(row.spread().fractionOfCeilingMin()).isEqualTo(0.4);
        assertThat(row.spread().fractionOfCeilingMax()).isEqualTo(0.6);
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("| get-by-id | 16 | 10,000 [9,000–12,000] |");
    }

    @Test
    void shouldSayTheFreshnessWarmupAndRecordItWhenOneRan() throws IOException {
        BenchSettings warmed = settings(true, List.of(16), RECORDED_CLASSES, null, true, 1, Duration.ofSeconds(30));

        Report.write(dir, full(), warmed);

        assertThat(Files.readString(dir.resolve("summary.md")))
                .contains("before the first run, 30.0 s of changes at that rate with the read mix, not measured");
        assertThat(io.catalogviews.bench.results.RunSettings.of(warmed).freshnessWarmupSeconds()).isEqualTo(30.0);
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
        if (System.getProperty(RECORD) != null) {
            Path recorded = Path.of("src/test/resources/io/catalogviews/bench/report/recorded", name);
            for (String file : List.of("results.json", "summary.md", "throughput.svg", "latency.svg")) {
                Files.copy(dir.resolve(file), recorded.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
        }
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
        return settings(quick, concurrencies, classes, url, postgres, 1);
    }

    private static BenchSettings settings(boolean quick, List<Integer> concurrencies, List<QueryClass> classes,
                                          String url, boolean postgres, int runs) {
        return settings(quick, concurrencies, classes, url, postgres, runs, Duration.ZERO);
    }

    private static BenchSettings settings(boolean quick, List<Integer> concurrencies, List<QueryClass> classes,
                                          String url, boolean postgres, int runs, Duration freshnessWarmup) {
        return new BenchSettings(quick, 20_000, 5_000, Duration.ofSeconds(1), Duration.ofSeconds(2), concurrencies,
                classes, url == null ? null : "kafka:9092", url, "catalog-views-bench", "catalog.product-events",
                12, "service.jar", "harness.jar", List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC"), ENV, 64, postgres,
                List.of(2, 4, 8), url == null, 10_000, 1000, Duration.ofSeconds(5), Path.of("bench-results"), 42,
                false, url == null, true, Duration.ZERO, runs, 500, List.of("-XX:TieredStopAtLevel=1"), freshnessWarmup);
    }

    /** The settings each recorded fixture was written with. */
    private static BenchSettings settingsOf(String fixture) {
        return switch (fixture) {
            case "full" -> settings(true, List.of(16), RECORDED_CLASSES, null, true);
            case "external" -> settings(false, List.of(16, 64),
                    List.of(QueryClass.GET_BY_ID, QueryClass.CATEGORY_PRICE), "http://catalog:8080", false);
            default -> settings(true, List.of(16), List.of(QueryClass.GET_BY_ID, QueryClass.DEEP_PAGE), null, false);
        };
    }

    private static final List<String> JVM = List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC");
    private static final Map<String, String> ENV = Map.of("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1");

    private static BenchResults results(BenchSettings s, BrokerProcess broker, ServiceProcess service,
                                        LoadFigures load, PostgresIngest ingest, PostgresSetup postgres,
                                        List<DeepPage> deep, FreshnessFigures freshness, ChurnFigures churn,
                                        MemoryFigures memory, RestoreFigures restore, List<LoadResult> runs) {
        return results(s, broker, service, load, ingest, postgres, deep, freshness, churn, memory, restore, runs,
                null);
    }

    private static BenchResults results(BenchSettings s, BrokerProcess broker, ServiceProcess service,
                                        LoadFigures load, PostgresIngest ingest, PostgresSetup postgres,
                                        List<DeepPage> deep, FreshnessFigures freshness, ChurnFigures churn,
                                        MemoryFigures memory, RestoreFigures restore, List<LoadResult> runs,
                                        BuildInfo build) {
        Machine machine = new Machine(2, 7940L, "Linux 6.1.0", "OpenJDK 64-Bit Server VM 17.0.13",
                "Intel(R) Xeon(R) CPU @ 2.20GHz", "load client, service, broker and PostgreSQL all share these cores");
        return new BenchResults(RunSettings.of(s), machine, broker, service, load, ingest, postgres, deep, freshness,
                churn, memory, restore, runs, null, null, null, null, null, build, null);
    }

    private static LoadResult run(String target, QueryClass c, int concurrency, double throughput, long wrong,
                                  double bytes) {
        long ok = Math.round(throughput * 2);
        List<String> samples = wrong == 0 ? List.of() : List.of("GET /v1/products/p-0000042: $.version is 3, "
                + "expected 4");
        return new LoadResult(target, c.key, concurrency, 2.0, ok, wrong, 0, throughput, 0.5 + throughput / 1e5,
                0.9 + throughput / 1e5, 1.5 + throughput / 1e5, 12.25, bytes, 0.8, 0.6, 0.05, samples, 1, wrong,
                Math.round(0.6 * 2.0 * 1e6 / (ok + wrong) * 10) / 10.0, null);
    }

    /** The 20 000 products and 5 000 changes in one part each: 1.0 + 0.25 s publishing, 2.0 + 0.5 s in all. */
    private static LoadFigures load(boolean passThrough) {
        LoadFigures load = LoadFigures.of(
                MaterializedRuns.of("new products", List.of(new MaterializedRuns.Part(20_000, 1.0, 2.0, 10_000))),
                MaterializedRuns.of("changes", List.of(new MaterializedRuns.Part(5_000, 0.25, 0.5, 10_000))));
        return passThrough ? load.withPassThrough(40_000) : load;
    }

    /** One freshness run, as the first format recorded it, with the figures added since. */
    private static FreshnessFigures freshness(double achieved, long events, long probes, long timeouts, long errors,
                                              double p50, double p95, double p99, double max, boolean categories) {
        ViewFreshness product = ViewFreshness.of("product view (GET /v1/products/{id})", probes, timeouts, 0, errors,
                p50, p95, p99, max, null);
        ViewFreshness category = categories ? ViewFreshness.of("category page (GET /v1/products?category=c&brand=b"
                + "&minPrice=p&maxPrice=p&sort=price)", 140, 0, 6, 0, 30.5, 80.25, 140.0, 210.0, 10.0) : null;
        ReadLoadFigures reads = categories ? new ReadLoadFigures(500, 497.5, 6.0, 2_985, 2_980, 0, 0, 0, 3.5, 40.0,
                95.0, List.of("get-by-id", "category-price"), ReadLoadFigures.NOTE) : null;
        return FreshnessFigures.of(1000, List.of(new FreshnessFigures.Run(1, achieved, events, product, category,
                reads)));
    }

    /** The schema the first format recorded (the peer's schema has changed since; the key has not). */
    private static final List<String> FIRST_SCHEMA = List.of("DROP TABLE IF EXISTS product_categories",
            "DROP TABLE IF EXISTS products", "CREATE TABLE products (id text PRIMARY KEY, brand text NOT NULL, "
                    + "price_cents bigint NOT NULL, stock int NOT NULL, rating real, updated_at bigint NOT NULL, "
                    + "version bigint NOT NULL, doc text NOT NULL)", "CREATE TABLE product_categories (category "
                    + "text NOT NULL, id text NOT NULL, brand text NOT NULL, price_cents bigint NOT NULL, stock int "
                    + "NOT NULL, updated_at bigint NOT NULL, PRIMARY KEY (category, id))",
            "CREATE INDEX pc_category_price ON product_categories (category, price_cents, id)",
            "CREATE INDEX pc_category_brand_price ON product_categories (category, brand, price_cents, id) "
                    + "INCLUDE (stock)",
            "CREATE INDEX pc_category_updated ON product_categories (category, updated_at DESC, id)",
            "CREATE INDEX pc_category_brand_updated ON product_categories (category, brand, updated_at DESC, id)",
            "CREATE INDEX products_price ON products (price_cents, id)",
            "CREATE INDEX products_updated ON products (updated_at DESC, id)");

    private static PostgresSetup postgres() {
        PostgresSetup.Tuning tuning = new PostgresSetup.Tuning(
                List.of(new PostgresSetup.Trial("pool 8", "get-by-id", Report.PG_HTTP, List.of(3_000.0), 3_000),
                        new PostgresSetup.Trial("pool 16", "get-by-id", Report.PG_HTTP, List.of(3_400.0), 3_400)),
                16, List.of(new PostgresSetup.Trial("auto", "category-updated", Report.PG_JDBC, List.of(900.0), 900),
                new PostgresSetup.Trial("force_custom_plan", "category-updated", Report.PG_JDBC, List.of(1_800.0),
                        1_800)), Map.of("category-updated", "force_custom_plan"), 2.0, PostgresSetup.Tuning.NOTE);
        PostgresSetup.Plan plan = new PostgresSetup.Plan("get-by-id", "auto",
                "SELECT id, version, doc, price_cents, updated_at FROM products WHERE id = ?", List.of("'p-0000000'"),
                List.of("Index Scan using products_pkey on products  (actual time=0.010..0.011 rows=1 loops=1)",
                        "Execution Time: 0.030 ms"));
        return new PostgresSetup("jdbc:postgresql://127.0.0.1:40130/postgres?reWriteBatchedInserts=true", 16,
                FIRST_SCHEMA, "PostgreSQL 15.14 (Debian 15.14-0+deb12u1)", Map.of("shared_buffers", "8192 8kB"),
                PgSchema.FACET_STRATEGY, 16, null, null).tuned(tuning, List.of(plan));
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
        return new ServiceProcess("http://127.0.0.1:40125", 1002, JVM, ENV, 64);
    }

    static BenchResults full() {
        BenchSettings s = settings(true, List.of(16), RECORDED_CLASSES, null, true);
        List<ChurnFigures.Row> rows = new ArrayList<>();
        for (QueryClass c : List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE)) {
            rows.add(ChurnFigures.Row.of(c.key, throughput(c), throughput(c) * 0.9, 19_000.0, 20_000.0));
        }
        RestoreFigures.Timing timing = new RestoreFigures.Timing(1.5, 6.25, 6.5, 7.0, 5.5, 20_000 / 7.0, 35.0, 31.25,
                57_000 / 6.25, 56_000, 1, "lag Lag[input=0, repartition=12, inputCommitted=25000]",
                RestoreFigures.Timing.NOTE);
        RestoreFigures.Verification verification = new RestoreFigures.Verification(
                RECORDED_CLASSES.stream().map(c -> c.key).toList(), 4, 1.0, 12_345, 0, 0);
        MaterializedRuns churned = MaterializedRuns.of("churn",
                List.of(new MaterializedRuns.Part(10_000, 0.5, 2.0, 5_000)));
        ChangelogWrites changelog = new ChangelogWrites(10_000, 40_000_000, 52_500_000, 12_500_000, 51_000, 1_250,
                5.1, Map.of("catalog-views-bench-products-changelog", 4_500_000L,
                "catalog-views-bench-category-rows-changelog", 8_000_000L), ChangelogWrites.NOTE, 12_500_000);
        return results(s, broker(), service(), load(true),
                PostgresIngest.of(25_000, 5.0, PgSchema.BATCH, 10_000.0),
                postgres(),
                List.of(new DeepPage("electronics", 73, 4320), new DeepPage("home", 40, 2340),
                        new DeepPage("fashion", 27, 1560)),
                freshness(998.5, 4993, 500, 0, 1, 12.5, 40.25, 95.5, 180.0, true),
                new ChurnFigures(10_000, 2.0, 5_000.0, rows, churned, changelog),
                new MemoryFigures(64, 64, 612.5, JVM),
                new RestoreFigures(null, changelogs(), 1.75, timing, verification, 47.0, 590.25, null),
                fullRuns(), new BuildInfo("/work/main/api/target/catalog-views.jar",
                        "fce33205d2c1f7e4b6a0c9e8d7f6a5b4c3d2e1f0", false, "2026-12-02T09:15:00Z",
                        "/work/main/bench/target/catalog-views-bench.jar", "fce33205d2c1f7e4b6a0c9e8d7f6a5b4c3d2e1f0",
                        false));
    }

    private static double throughput(QueryClass c) {
        return 1_000.0 * (10 - c.ordinal());
    }

    static List<LoadResult> fullRuns() {
        List<LoadResult> runs = new ArrayList<>();
        for (QueryClass c : RECORDED_CLASSES) {
            runs.add(observed(run(Report.SERVICE, c, 16, throughput(c), 0, 450 + 100 * c.ordinal())));
            runs.add(run(Report.CEILING, c, 16, 20_000, 0, 450 + 100 * c.ordinal()));
            runs.add(run(Report.PG_HTTP, c, 16, throughput(c) / 3, 0, 450 + 100 * c.ordinal()));
            runs.add(run(Report.PG_JDBC, c, 16, throughput(c) / 2, 0, 0));
        }
        for (QueryClass c : List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE)) {
            runs.add(run(Report.SERVICE + "/after-churn", c, 16, throughput(c) * 0.9, 0, 900));
            runs.add(run(Report.CEILING + "/after-churn", c, 16, 19_000, 0, 900));
        }
        for (QueryClass c : RECORDED_CLASSES) {
            runs.add(run(Report.SERVICE + "/after-restore", c, 4, throughput(c) / 2, 0, 450));
        }
        return runs;
    }

    /** A service run with what the service did inside (its threads, GC, block cache). */
    private static LoadResult observed(LoadResult r) {
        Map<String, Double> threads = new LinkedHashMap<>();
        threads.put("jetty", 0.62);
        threads.put("kafka-streams", 0.08);
        threads.put("jit-c2", 0.05);
        threads.put("gc", 0.02);
        ServiceObservation o = new ServiceObservation(threads, new ServiceObservation.GcDelta(3, 0.012, 1, 0.004),
                new ServiceObservation.BlockCacheReading(null, null, 33_554_432.0, 67_108_864.0,
                        Map.of("product-view", ServiceObservation.DataLookups.of(900, 100)), "no kafka_stream_state_block_cache_{data,index,filter}_hit_ratio series in /metrics "
                                + "(Kafka Streams records them at metrics.recording.level=DEBUG)"),
                new TreeMap<>(Map.of("product-view", new ServiceObservation.StoreRuns(40, 12, 12),
                        "category-listings", new ServiceObservation.StoreRuns(12, 12, 0))), null);
        return new LoadResult(r.target(), r.queryClass(), r.concurrency(), r.seconds(), r.ok(), r.wrong(),
                r.errors(), r.throughput(), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.meanBytes(),
                r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores(), r.samples(), r.run(), r.parsedAnswers(),
                r.clientCpuMicrosPerRequest(), o);
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
        return results(s, null, new ServiceProcess("http://catalog:8080", -1, JVM, Map.of(), 64), load(false), null, null,
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
                freshness(640.0, 3200, 320, 3, 0, 30.0, 180.0, 260.5, 10_000.0, false),
                churn, new MemoryFigures(64, 0, 700.0, JVM),
                RestoreFigures.failed(changelogs(), 1.75, null, null,
                        "java.lang.IllegalStateException: the restored service exited; log:\nOutOfMemoryError"),
                runs);
    }
}
