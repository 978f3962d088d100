package io.catalogviews.bench;

import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.broker.ChildProcessKafkaBroker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code catalog-views bench}: the benchmark harness. Starts a Kafka broker and the service under test as child
 * JVMs (or uses {@code --bootstrap-servers} / {@code --url}), publishes a synthetic catalog, waits until every
 * view has caught up, then loads every query class over HTTP, checking each answer against a reference model,
 * beside a bare-HTTP ceiling and PostgreSQL; then freshness, churn, memory and a restore from the changelogs. Writes
 * {@code bench-results/<timestamp>/results.json}, {@code summary.md} and SVG charts.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark the service: load, freshness, verified HTTP queries against the HTTP ceiling and "
                + "PostgreSQL, churn, memory, restore.",
                "Exit code 0 when the run completed with no wrong answer, 2 when some answer was wrong, 1 when a "
                        + "phase failed (the restore included)."})
public final class BenchCommand implements Callable<Integer> {

    /** The system property naming the service's executable jar, the default class path of the service JVM. */
    public static final String SERVICE_JAR_PROPERTY = "catalogViews.serviceJar";
    private static final Pattern ENVIRONMENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    @Option(names = "--quick", description = "Small profile (20 000 products, 5 000 changes, 2 s runs at 16 "
            + "connections, one run of each, 10 000 churn changes, 5 s of freshness): finishes in a few minutes.")
    boolean quick;

    @Option(names = "--products", description = "Products in the synthetic catalog (max 2 000 000). "
            + "Default: 1 000 000, quick 20 000.")
    Integer products;

    @Option(names = "--updates", description = "Price/stock changes published after the products. "
            + "Default: as many as products, quick 5 000.")
    Long updates;

    @Option(names = "--duration", converter = DurationText.class,
            description = "Measured time of each query run (10s, PT10S). Default: 10s, quick 2s.")
    Duration duration;

    @Option(names = "--warmup", converter = DurationText.class, description = "Warm-up before each measured run. "
            + "Default: 3s, quick 1s.")
    Duration warmup;

    @Option(names = "--jit-warmup", converter = DurationText.class, description = "Unmeasured load of each target, "
            + "shared out over the query classes, before its first measured run: the JVMs compile their hot paths "
            + "(a 3 s warm-up measured get by id at half its steady rate). Default: 120s, quick 0s (then --warmup "
            + "per class).")
    Duration jitWarmup;

    @Option(names = "--concurrency", split = ",", description = "Concurrent connections of the query runs, "
            + "comma-separated; the first is the headline. Default: 16,64, quick 16.")
    List<Integer> concurrency;

    @Option(names = "--classes", split = ",", description = "Query classes to run (default all): get-by-id, "
            + "batch-100, category-price, category-updated, category-price-desc, page-1, deep-page, facets, "
            + "catalog-page.")
    List<String> classes;

    @Option(names = "--bootstrap-servers", description = "A running Kafka. Default: a broker the harness starts.")
    String bootstrapServers;

    @Option(names = "--url", description = "A running deployment (http://host:port) to load and query instead of "
            + "a service the harness starts; needs --bootstrap-servers, and its input topic should hold no other "
            + "catalog (the answers are checked against the harness's own events).")
    String url;

    @Option(names = "--application-id", description = "Application id of the service (its consumer group). "
            + "Default: catalog-views-bench.")
    String applicationId;

    @Option(names = "--input-topic", description = "Input topic. Default: catalog.product-events.")
    String inputTopic;

    @Option(names = "--partitions", defaultValue = "12", description = "Partitions of the input topic. "
            + "Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(names = "--service-classpath", description = "Class path of the service JVM. Default: the service's "
            + "jar named by the system property " + SERVICE_JAR_PROPERTY + " (bin/catalog-views sets it to "
            + "api/target/catalog-views.jar), else the class path of this JVM (which holds the service too).")
    String serviceClassPath;

    @Option(names = "--service-jvm-options", description = "JVM options of the service (and of the ceiling and "
            + "PostgreSQL HTTP servers), space-separated. Default: ${DEFAULT-VALUE}.",
            defaultValue = "-Xms256m -Xmx1g -XX:+UseG1GC")
    String serviceJvmOptions;

    @Option(names = "--service-env", split = ",", paramLabel = "NAME=VALUE", description = "Variables set in the "
            + "environment of the service JVM (and of the ceiling and PostgreSQL HTTP servers) over the harness's own, "
            + "comma-separated (for example GLIBC_TUNABLES=glibc.malloc.hugetlb=1); NAME= removes NAME. Default: none.")
    List<String> serviceEnv;

    @Option(names = "--broker-jvm-options", description = "JVM options of the Kafka broker the harness starts, "
            + "space-separated. Default: Kafka's start script's (1 GB heap, G1, full JIT), as a deployment's brokers; "
            + "quick: the tests' broker's (small heap, serial GC, C1 only), which starts fastest.")
    String brokerJvmOptions;

    @Option(names = "--rocksdb-memory-mb", description = "RocksDB memory bound of the service, and PostgreSQL's "
            + "shared_buffers (the same cache budget for both). Default: 3 KB per product, at least 256; quick 64.")
    Long rocksDbMemoryMb;

    @Option(names = "--postgres", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the PostgreSQL peer (bench/scripts/postgres.sh installs it when missing). "
                    + "Default: ${DEFAULT-VALUE}.")
    boolean postgres;

    @Option(names = "--ceiling", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the HTTP ceiling. Default: ${DEFAULT-VALUE}.")
    boolean ceiling;

    @Option(names = "--churn-updates", description = "Changes published for the churn phase (0: none). "
            + "Default: 2 × products, quick 10 000.")
    Long churnUpdates;

    @Option(names = "--freshness-rate", description = "Changes per second of the freshness phase (0: none). "
            + "Default: 1000.")
    Double freshnessRate;

    @Option(names = "--freshness-read-rate", description = "Requests per second of the read mix (every selected "
            + "class in turn, open loop) that runs while the freshness phase publishes its changes (0: none). "
            + "Default: 500.")
    Double freshnessReadRate;

    @Option(names = "--runs", description = "Repetitions of every measured figure (each query run, alternating the "
            + "targets it compares; freshness; materialization): median and [min, max] are reported. "
            + "Default: 3, quick 1.")
    Integer runs;

    @Option(names = "--postgres-pools", split = ",", description = "Pool sizes of PostgreSQL's sessions measured "
            + "before its query runs (its HTTP front and the JDBC target); the best is kept. One size: that size, "
            + "unmeasured. Default: 2,4,8 (the machine has 2 cores).")
    List<Integer> postgresPools;

    @Option(names = "--freshness-duration", converter = DurationText.class, description = "Length of the "
            + "freshness phase. Default: 20s, quick 5s.")
    Duration freshnessDuration;

    @Option(names = "--freshness-warmup", converter = DurationText.class, description = "Changes published at the "
            + "freshness rate, with the read mix, before the first freshness run and not measured: the service "
            + "compiles its change path meanwhile (a load without changes leaves it cold). Default: 30s, quick 0s.")
    Duration freshnessWarmup;

    @Option(names = "--output-dir", defaultValue = "bench-results", description = "Where run directories go. "
            + "Default: ${DEFAULT-VALUE}.")
    Path outputDir;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the catalog and of the queries. "
            + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--pass-through", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also time a pass-through Kafka Streams topology (exactly_once_v2) over the same events, "
                    + "the yardstick of the ingest figure. Default: ${DEFAULT-VALUE}.")
    boolean passThrough;

    @Option(names = "--restore", negatable = true, fallbackValue = "true",
            description = "At the end, stop the service cleanly, delete its state directory and start it again: time "
                    + "the restore from the changelogs until /health/ready and until every view answers right again "
                    + "(only for a service the harness starts). Default: true.")
    Boolean restore;

    @Option(names = "--keep-data", description = "Keep the broker, service and PostgreSQL data of the run.")
    boolean keepData;

    /** The settings with the profile's defaults applied. */
    public BenchSettings settings() {
        int n = products != null ? products : quick ? 20_000 : 1_000_000;
        if (n < 100 || n > 2_000_000) {
            throw new IllegalArgumentException("--products must be within 100..2000000, was " + n);
        }
        if (url != null && bootstrapServers == null) {
            throw new IllegalArgumentException("--url needs --bootstrap-servers (the harness publishes its catalog)");
        }
        List<QueryClass> cls = classes == null ? List.of(QueryClass.values())
                : classes.stream().map(QueryClass::byKey).toList();
        if (freshnessWarmup != null && freshnessWarmup.isNegative()) {
            throw new IllegalArgumentException("--freshness-warmup must not be negative, was " + freshnessWarmup);
        }
        List<String> jvm = options(serviceJvmOptions);
        // The broker shares the service's two cores here; its C1-only code took 0.5-0.7 of a core in the freshness
        // phase and made category-page freshness twice as variable (docs/benchmarks.md, "The broker's JVM, again").
        List<String> brokerJvm = brokerJvmOptions != null ? options(brokerJvmOptions)
                : quick ? ChildProcessKafkaBroker.DEFAULT_JVM_OPTIONS : ChildProcessKafkaBroker.KAFKA_SCRIPT_JVM_OPTIONS;
        return new BenchSettings(quick, n,
                updates != null ? updates : quick ? Math.min(5_000, n) : n,
                warmup != null ? warmup : Duration.ofSeconds(quick ? 1 : 3),
                duration != null ? duration : Duration.ofSeconds(quick ? 2 : 10),
                concurrency != null ? concurrency : quick ? List.of(16) : List.of(16, 64),
                cls, bootstrapServers, url,
                applicationId != null ? applicationId : "catalog-views-bench",
                inputTopic != null ? inputTopic : "catalog.product-events",
                partitions,
                serviceClassPath != null ? serviceClassPath
                        : System.getProperty(SERVICE_JAR_PROPERTY, System.getProperty("java.class.path")),
                System.getProperty("java.class.path"),
                jvm, environment(serviceEnv),
                rocksDbMemoryMb != null ? rocksDbMemoryMb : quick ? 64 : defaultCacheMb(n),
                postgres, postgresPools != null ? postgresPools : List.of(2, 4, 8), ceiling,
                churnUpdates != null ? churnUpdates : quick ? 10_000 : 2L * n,
                freshnessRate != null ? freshnessRate : 1000,
                freshnessDuration != null ? freshnessDuration : Duration.ofSeconds(quick ? 5 : 20),
                outputDir, seed, keepData, passThrough, restore == null || restore,
                jitWarmup != null ? jitWarmup : Duration.ofSeconds(quick ? 0 : 120),
                runs(), freshnessReadRate != null ? freshnessReadRate : 500, brokerJvm,
                freshnessWarmup != null ? freshnessWarmup : Duration.ofSeconds(quick ? 0 : 30));
    }

    /**
     * {@code NAME=VALUE} entries as a map in their order; the value may hold {@code =}, an empty one removes NAME. No
     * NUL anywhere: a process environment cannot hold it, and the child would fail to start long after this check.
     */
    static Map<String, String> environment(List<String> entries) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            int eq = entry.indexOf('=');
            String name = eq < 0 ? entry : entry.substring(0, eq);
            if (eq < 0 || !ENVIRONMENT_NAME.matcher(name).matches() || entry.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("--service-env entries must be NAME=VALUE with NAME of letters, "
                        + "digits and '_' not starting with a digit and no NUL in VALUE, was '"
                        + entry.replace('\0', '?') + "'");
            }
            if (out.put(name, entry.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("--service-env names " + name + " twice");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<String> options(String spaceSeparated) {
        List<String> out = new ArrayList<>(Arrays.asList(spaceSeparated.trim().split("\\s+")));
        out.removeIf(String::isEmpty);
        return List.copyOf(out);
    }

    private int runs() {
        int n = runs != null ? runs : quick ? 1 : 3;
        if (n < 1 || n > 20) {
            throw new IllegalArgumentException("--runs must be within 1..20, was " + n);
        }
        if (postgresPools != null && (postgresPools.isEmpty() || postgresPools.stream().anyMatch(p -> p < 1))) {
            throw new IllegalArgumentException("--postgres-pools must be sizes of at least 1, was " + postgresPools);
        }
        return n;
    }

    /**
     * A cache sized to the catalog, as a deployment would size it: about 3 KB per product (two thirds of the
     * service's stores at two category memberships per product, docs/listings.md), and never below the service's own default.
     */
    static long defaultCacheMb(int products) {
        return Math.max(256, (products * 3072L + (1 << 20) - 1) >> 20);
    }

    @Override
    public Integer call() throws Exception {
        BenchSettings s = settings();
        BenchRun run = new BenchRun(s, System.out);
        Path dir = run.run();
        BenchResults results = run.results();
        System.out.println();
        System.out.println(java.nio.file.Files.readString(dir.resolve("summary.md")));
        System.out.println("[bench] results: " + dir.resolve("results.json") + ", " + dir.resolve("summary.md"));
        if (results.wrongAnswers() > 0) {
            return 2;
        }
        if (results.restore() != null && results.restore().error() != null) {
            System.out.println("[bench] the restore phase failed: " + results.restore().error());
            return 1;
        }
        return 0;
    }

    /** {@code 10s}, {@code 500ms}, {@code 2m} or ISO-8601 ({@code PT10S}). */
    public static final class DurationText implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            if (v.startsWith("p")) {
                return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            long n = Long.parseLong(v.substring(0, v.length() - 1));
            return switch (v.charAt(v.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> Duration.ofSeconds(Long.parseLong(v));
            };
        }
    }
}
