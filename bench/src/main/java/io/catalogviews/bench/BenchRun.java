package io.catalogviews.bench;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.CpuClock;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.load.LoadRunner;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.peer.JdbcTarget;
import io.catalogviews.bench.peer.PgSchema;
import io.catalogviews.bench.peer.PgSession;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.report.Report;
import io.catalogviews.bench.service.BenchServers;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.bench.service.Freshness;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.bench.service.Publishers;
import io.catalogviews.broker.ChildProcessKafkaBroker;
import io.catalogviews.broker.EmbeddedKafkaBroker;
import io.catalogviews.cli.CatalogViewsCli;
import io.catalogviews.cli.EventPublisher;
import io.catalogviews.cli.ProgressBar;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One benchmark run, phase by phase: broker and service (child JVMs), load (publish, materialize), the
 * PostgreSQL peer (ingest), verified query runs against the service, the HTTP ceiling and PostgreSQL (HTTP and
 * JDBC) class by class and concurrency by concurrency, freshness, churn, memory; then the report.
 */
public final class BenchRun {

    private final BenchSettings s;
    private final PrintStream out;
    private final Map<String, Object> results = new LinkedHashMap<>();
    private final List<LoadResult> runs = new ArrayList<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private Path runDir;
    private Path workDir;

    public BenchRun(BenchSettings settings, PrintStream out) {
        this.s = settings;
        this.out = out;
    }

    private int servicePort;
    private ChildJvm service;

    /** Runs everything; returns the run's directory (results.json, summary.md, charts). */
    public Path run() throws Exception {
        runDir = s.outputDir().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        workDir = runDir.resolve("work");
        Files.createDirectories(workDir);
        results.put("settings", Report.settings(s));
        results.put("machine", Report.machine());
        try {
            execute();
        } finally {
            for (int i = toClose.size() - 1; i >= 0; i--) {
                try {
                    toClose.get(i).close();
                } catch (Exception e) {
                    out.println("while stopping: " + e);
                }
            }
            if (!s.keepData()) {
                deleteQuietly(workDir);
            }
        }
        results.put("queries", runs);
        Report.write(runDir, results, runs, s);
        return runDir;
    }

    public Map<String, Object> results() {
        return results;
    }

    private void execute() throws Exception {
        // ---------------------------------------------------------------- broker and service
        String bootstrap = s.bootstrapServers();
        if (bootstrap == null) {
            say("starting a Kafka broker (child JVM, KRaft, one node)");
            ChildProcessKafkaBroker broker = ChildProcessKafkaBroker.start(
                    EmbeddedKafkaBroker.Config.of(workDir.resolve("kafka")));
            toClose.add(broker);
            bootstrap = broker.bootstrapServers();
            results.put("broker", Map.of("bootstrapServers", bootstrap, "pid", broker.pid().orElse(-1)));
        }
        String serviceUrl = s.serviceUrl();
        long servicePid = -1;
        if (serviceUrl == null) {
            servicePort = ChildJvm.freePort();
            say("starting the service under test (child JVM) on port " + servicePort);
            service = startService(bootstrap, runDir.resolve("service.log"));
            service.awaitHttp("/health/ready", Duration.ofMinutes(3));
            serviceUrl = service.url();
            servicePid = service.pid();
        }
        results.put("service", Map.of("url", serviceUrl, "pid", servicePid, "jvmOptions", s.serviceJvmOptions(),
                "rocksDbMemoryMb", s.rocksDbMemoryMb()));

        // ---------------------------------------------------------------- load
        CatalogModel model = new CatalogModel(new SyntheticCatalog(s.seed()), s.products());
        Materialization views = new Materialization(bootstrap, s.applicationId(), s.inputTopic());
        toClose.add(views);
        long events = s.products() + s.updates();
        say("publishing " + s.products() + " products and " + s.updates() + " price/stock changes");
        long t0 = System.nanoTime();
        double publishSeconds;
        try (EventPublisher sender = Publishers.batched(bootstrap, s.inputTopic())) {
            ProgressBar bar = new ProgressBar(System.err, "publishing", events);
            for (int i = 0; i < s.products(); i++) {
                sender.publish(model.upsert(i), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            for (long k = 0; k < s.updates(); k++) {
                sender.publish(model.nextChange(), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            sender.flush();
            bar.finish(sender.acknowledged());
            publishSeconds = (System.nanoTime() - t0) / 1e9;
        }
        long caughtUp = views.awaitCaughtUp(serviceUrl, model, 0, events, Duration.ofMinutes(60), "materializing");
        double materializeSeconds = (caughtUp - t0) / 1e9;
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("products", s.products());
        load.put("updates", s.updates());
        load.put("events", events);
        load.put("publishSeconds", publishSeconds);
        load.put("publishedPerSecond", events / publishSeconds);
        load.put("materializeSeconds", materializeSeconds);
        load.put("materializedPerSecond", events / materializeSeconds);
        load.put("drainAfterPublishSeconds", materializeSeconds - publishSeconds);
        load.put("note", "materialized = from the first send until the consumer group had no lag on the input and "
                + "repartition topics and GET /v1/categories and a sample of products agreed with the model");
        results.put("load", load);
        checkpoint();
        say(String.format(java.util.Locale.ROOT, "published %,.0f events/s; every view caught up after %.1f s: "
                + "%,.0f events/s materialized", events / publishSeconds, materializeSeconds, events / materializeSeconds));

        if (s.passThrough()) {
            say("pass-through topology (exactly_once_v2) over the same events, as the yardstick");
            double rate = io.catalogviews.bench.service.PassThrough.run(bootstrap, s.inputTopic(), s.partitions(),
                    events, workDir.resolve("passthrough-state"));
            load.put("passThroughPerSecond", rate);
            load.put("fractionOfPassThrough", (events / materializeSeconds) / rate);
            say(String.format(java.util.Locale.ROOT, "pass-through: %,.0f events/s; catalog-views materialized at "
                    + "%.0f %% of it", rate, 100 * (events / materializeSeconds) / rate));
        }

        // ---------------------------------------------------------------- peers
        HttpTarget serviceTarget = servicePid > 0 ? new HttpTarget("catalog-views", serviceUrl, servicePid)
                : new HttpTarget("catalog-views", serviceUrl);
        HttpTarget ceilingTarget = null;
        if (s.ceiling()) {
            int port = ChildJvm.freePort();
            ChildJvm ceiling = ChildJvm.start("ceiling", s.harnessClassPath(), s.serviceJvmOptions(),
                    BenchServers.class.getName(), List.of("ceiling", Integer.toString(port)),
                    runDir.resolve("ceiling.log"), port);
            toClose.add(ceiling);
            ceiling.awaitHttp("/health/ready", Duration.ofMinutes(1));
            ceilingTarget = new HttpTarget("http-ceiling", ceiling.url(), ceiling.pid());
        }
        HttpTarget pgHttp = null;
        JdbcTarget pgJdbc = null;
        if (s.postgres()) {
            String jdbcUrl = startPostgres();
            long pgPid = postgresPid();
            say("loading PostgreSQL with the same events (batched upserts, indexes in place)");
            CatalogModel replay = new CatalogModel(new SyntheticCatalog(s.seed()), s.products());
            try (PgSession session = new PgSession(jdbcUrl)) {
                PgSchema.create(session.connection());
                double seconds = PgSchema.load(session.connection(), replay, s.products(), s.updates(),
                        new ProgressBar(System.err, "PostgreSQL upserts", events));
                results.put("postgresIngest", Map.of("events", events, "seconds", seconds,
                        "eventsPerSecond", events / seconds, "batch", PgSchema.BATCH,
                        "ratioCatalogViewsToPostgres", (events / materializeSeconds) / (events / seconds)));
                say(String.format(java.util.Locale.ROOT, "PostgreSQL ingest: %,.0f events/s", events / seconds));
            }
            int port = ChildJvm.freePort();
            int pool = Math.min(32, s.concurrencies().stream().max(Integer::compare).orElse(16));
            ChildJvm front = ChildJvm.start("postgres-http", s.harnessClassPath(), s.serviceJvmOptions(),
                    BenchServers.class.getName(), List.of("postgres", Integer.toString(port), jdbcUrl,
                            Integer.toString(pool)), runDir.resolve("postgres-http.log"), port);
            toClose.add(front);
            front.awaitHttp("/health/ready", Duration.ofMinutes(1));
            pgHttp = new HttpTarget("postgres-http", front.url(), pgPid, front.pid());
            pgJdbc = new JdbcTarget(jdbcUrl, pgPid);
            results.put("postgres", Map.of("jdbcUrl", jdbcUrl, "httpPool", pool, "schema", PgSchema.DDL));
        }

        // ---------------------------------------------------------------- queries
        say("computing the expected answers");
        Workloads workloads = new Workloads(model, s.seed());
        List<Map<String, Object>> deep = new ArrayList<>();
        for (Workloads.Deep d : workloads.deepPages()) {
            deep.add(Map.of("category", d.category(), "page", d.pageNumber(), "offset", d.page().offset()));
        }
        results.put("deepPages", deep);
        // Every JVM (service, servers, this harness) was just started: one unmeasured pass over every class first,
        // so that no class pays for the JIT compilation of the next. A few seconds are not enough: with 3 s, get by
        // id ran at half the rate it reached after 40 s (docs/benchmarks.md), the C2 compiler still busy.
        Duration perClass = s.jitWarmup().dividedBy(Math.max(1, s.classes().size()));
        if (perClass.compareTo(s.warmup()) < 0) {
            perClass = s.warmup();
        }
        say("warming up every target (one unmeasured pass over every class, " + perClass.toMillis() / 1000.0
                + " s each)");
        List<Target> warm = new ArrayList<>();
        warm.add(serviceTarget);
        if (ceilingTarget != null) {
            warm.add(ceilingTarget);
        }
        if (pgHttp != null) {
            warm.add(pgHttp);
            warm.add(pgJdbc);
        }
        for (Target target : warm) {
            for (QueryClass c : s.classes()) {
                Query.Workload w = target == ceilingTarget ? ceilingWorkload(c, 1000) : workload(workloads, target, c);
                LoadRunner.run(target, w, model, s.headlineConcurrency(), perClass, Duration.ofMillis(1), s.seed());
            }
        }
        for (QueryClass c : s.classes()) {
            for (int concurrency : s.concurrencies()) {
                LoadResult main = measure(serviceTarget, workload(workloads, serviceTarget, c), model, concurrency);
                if (ceilingTarget != null) {
                    measure(ceilingTarget, ceilingWorkload(c, (int) Math.round(main.meanBytes())), model, concurrency);
                }
                if (pgHttp != null) {
                    measure(pgHttp, workload(workloads, pgHttp, c), model, concurrency);
                    measure(pgJdbc, workload(workloads, pgJdbc, c), model, concurrency);
                }
            }
        }

        // ---------------------------------------------------------------- freshness
        if (s.freshnessRate() > 0 && !s.freshnessDuration().isZero()) {
            say("freshness: " + s.freshnessRate() + " changes/s for " + s.freshnessDuration().toSeconds() + " s");
            long base = views.lag().inputCommitted();
            long before = model.changesApplied();
            Freshness.Result f;
            try (EventPublisher sender = Publishers.immediate(bootstrap, s.inputTopic())) {
                f = Freshness.run(sender, model, serviceUrl, s.freshnessRate(), s.freshnessDuration(), 10);
            }
            results.put("freshness", f);
            checkpoint();
            say(String.format(java.util.Locale.ROOT, "freshness p50 %.1f ms, p99 %.1f ms (%d probes)",
                    f.p50Ms(), f.p99Ms(), f.probes()));
            views.awaitCaughtUp(serviceUrl, model, base, base + model.changesApplied() - before,
                    Duration.ofMinutes(10), "catching up");
        }

        // ---------------------------------------------------------------- churn
        if (s.churnUpdates() > 0) {
            churn(serviceTarget, ceilingTarget, model, views, bootstrap, serviceUrl);
        }

        // ---------------------------------------------------------------- memory
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("rocksDbBoundMb", s.rocksDbMemoryMb());
        memory.put("postgresSharedBuffersMb", s.postgres() ? s.postgresSharedBuffersMb() : 0);
        if (servicePid > 0) {
            long rss = CpuClock.residentBytes(servicePid);
            memory.put("serviceRssMb", rss / (1024.0 * 1024));
            say(String.format(java.util.Locale.ROOT, "service resident memory at the end: %.0f MB (RocksDB bound %d MB, "
                    + "JVM %s)", rss / (1024.0 * 1024), s.rocksDbMemoryMb(), s.serviceJvmOptions()));
        }
        memory.put("serviceJvmOptions", s.serviceJvmOptions());
        results.put("memory", memory);

        // ---------------------------------------------------------------- restore
        // Last, so that it changes nothing any other phase measured: a fresh instance, an empty state directory.
        if (s.restore()) {
            if (service == null) {
                say("restore: skipped (--url: the harness did not start the service, so it cannot restart it)");
                results.put("restore", Map.of("skipped", "--url: a deployment the harness did not start"));
            } else {
                restore(bootstrap, model, views);
            }
        }
    }

    /**
     * Stops the service cleanly (SIGTERM: Kafka Streams closes with LEAVE_GROUP), deletes its state directory,
     * starts it again on the same port, broker and application id, and times from the process start until
     * {@code /health/ready} answers 200, and until {@code /v1/cluster} says {@code caughtUp: true}, the group
     * has no lag and the categories and a sample of products equal the model (the load phase's caught-up check).
     * Then one short verified pass over every query class. A failure is recorded, not thrown, so that the
     * figures of the other phases are still reported.
     */
    private void restore(String bootstrap, CatalogModel model, Materialization views) {
        Map<String, Object> r = new LinkedHashMap<>();
        results.put("restore", r);
        try {
            restoreTimed(bootstrap, model, views, r);
        } catch (Exception e) {
            r.put("error", e.toString());
            say("restore FAILED: " + e.getMessage());
        }
        checkpoint();
    }

    private void restoreTimed(String bootstrap, CatalogModel model, Materialization views, Map<String, Object> r)
            throws Exception {
        Map<String, Long> changelogs = views.changelogOffsets(s.applicationId());
        long offsets = changelogs.values().stream().mapToLong(Long::longValue).sum();
        long stateBytes = sizeOf(serviceStateDir());
        r.put("products", s.products());
        r.put("changelogTopics", changelogs);
        r.put("changelogOffsets", offsets);
        r.put("changelogNote", "end minus start offset of every partition of the application's changelog topics: "
                + "an upper bound on the records restored (exactly-once adds a transaction marker per partition and "
                + "commit; compaction may have removed records)");
        r.put("stateDirMbBefore", stateBytes / (1024.0 * 1024));
        say(String.format(java.util.Locale.ROOT, "restore: stopping the service cleanly (SIGTERM; state directory "
                + "%.0f MB, changelogs %,d offsets in %d topics)", stateBytes / (1024.0 * 1024), offsets,
                changelogs.size()));
        long stop0 = System.nanoTime();
        service.close();
        toClose.remove(service);
        r.put("stopSeconds", (System.nanoTime() - stop0) / 1e9);
        deleteQuietly(serviceStateDir());
        if (Files.exists(serviceStateDir())) {
            throw new IllegalStateException("cannot delete the state directory " + serviceStateDir());
        }
        say("restore: state directory deleted; starting the service again on port " + servicePort
                + " (same broker, same application id)");
        long t0 = System.nanoTime();
        service = startService(bootstrap, runDir.resolve("service-restore.log"));
        String url = service.url();
        long deadline = t0 + Duration.ofMinutes(Math.max(10, s.products() / 5_000)).toNanos();
        long httpUp = -1;
        long ready = -1;
        long clusterCaughtUp = -1;
        long right = -1;
        int notRight = 0;
        String firstProblem = null;
        String lastProblem = "no answer yet";
        long maxStoreLag = -1;
        ProgressBar bar = new ProgressBar(System.err, "restoring", offsets);
        byte[] readyHead = HttpConnection.get("/health/ready");
        while (right < 0) {
            if (System.nanoTime() > deadline) {
                bar.finish(0);
                throw new IllegalStateException("the restored service did not catch up within "
                        + Duration.ofNanos(deadline - t0) + ": " + lastProblem + "; log " + service.tail());
            }
            if (!service.isAlive()) {
                throw new IllegalStateException("the restored service exited; log:\n" + service.tail());
            }
            if (ready < 0) {
                try (HttpConnection c = HttpConnection.to(url, 2_000)) {
                    int status = c.exchange(readyHead, null).status();
                    long now = System.nanoTime();
                    httpUp = httpUp < 0 ? now : httpUp;
                    if (status == 200) {
                        ready = now;
                    }
                    lastProblem = "GET /health/ready answered " + status;
                } catch (IOException e) {
                    lastProblem = "not listening yet";
                }
            }
            if (httpUp >= 0) {
                Materialization.ClusterView cv = Materialization.cluster(url);
                if (cv != null && cv.storeLag() >= 0) {
                    maxStoreLag = Math.max(maxStoreLag, cv.storeLag());
                    bar.update(Math.max(0, offsets - cv.storeLag()));
                }
                if (cv != null && cv.caughtUp()) {
                    long now = System.nanoTime();
                    clusterCaughtUp = clusterCaughtUp < 0 ? now : clusterCaughtUp;
                    Materialization.Lag lag = views.lag();
                    String problem = lag.total() == 0 ? Materialization.httpProblem(url, model) : "lag " + lag;
                    if (problem == null) {
                        right = System.nanoTime();
                    } else {
                        notRight++;
                        firstProblem = firstProblem == null ? problem : firstProblem;
                        lastProblem = problem;
                    }
                } else if (cv != null) {
                    lastProblem = "GET /v1/cluster: status " + cv.status() + ", caughtUp false, store lag "
                            + cv.storeLag();
                }
            }
            if (right < 0) {
                ChildJvm.sleep(100);
            }
        }
        bar.finish(offsets);
        if (ready < 0) {
            ready = right; // answers were right before the readiness poll saw 200 (it is not asked after that)
        }
        double readySeconds = (ready - t0) / 1e9;
        double rightSeconds = (right - t0) / 1e9;
        r.put("httpUpSeconds", (httpUp - t0) / 1e9);
        r.put("readySeconds", readySeconds);
        r.put("clusterCaughtUpSeconds", (clusterCaughtUp - t0) / 1e9);
        r.put("restoreSeconds", rightSeconds);
        r.put("restoreSecondsAfterHttpUp", (right - httpUp) / 1e9);
        double productsPerSecond = s.products() / rightSeconds;
        double secondsPer100k = rightSeconds * 100_000 / s.products();
        double offsetsPerSecondToReady = offsets / readySeconds;
        r.put("productsPerSecond", productsPerSecond);
        r.put("secondsPer100kProducts", secondsPer100k);
        r.put("readySecondsPer100kProducts", readySeconds * 100_000 / s.products());
        r.put("changelogOffsetsPerSecondToReady", offsetsPerSecondToReady);
        r.put("maxStoreLagSeen", maxStoreLag);
        r.put("checksNotRightWhileCaughtUp", notRight);
        if (firstProblem != null) {
            r.put("firstProblemWhileCaughtUp", firstProblem);
        }
        r.put("note", "times from the start of the new service process (JVM start included): readySeconds until "
                + "GET /health/ready answered 200, restoreSeconds until GET /v1/cluster said caughtUp: true, the "
                + "consumer group had no lag and GET /v1/categories and 50 sampled products equaled the model; "
                + "restoreSecondsAfterHttpUp leaves out the JVM's start (a fixed cost that dominates small catalogs)");
        say(String.format(java.util.Locale.ROOT, "restore: HTTP up after %.1f s, ready after %.1f s, caught up and "
                        + "right after %.1f s: %,.0f products/s, %.1f s per 100 000 products, %,.0f changelog "
                        + "offsets/s (to ready)", (httpUp - t0) / 1e9, readySeconds, rightSeconds,
                productsPerSecond, secondsPer100k, offsetsPerSecondToReady));

        // One short verified pass over every query class: the restored index and facet entries, not only the rows.
        HttpTarget restored = new HttpTarget(Report.SERVICE, url, service.pid());
        Workloads workloads = new Workloads(model, s.seed());
        int concurrency = Math.min(4, s.headlineConcurrency());
        long ok = 0;
        long wrong = 0;
        long errors = 0;
        for (QueryClass c : QueryClass.values()) {
            LoadResult check = measure(restored, workload(workloads, restored, c), model, concurrency,
                    "after-restore", Duration.ZERO, RESTORE_CHECK);
            ok += check.ok();
            wrong += check.wrong();
            errors += check.errors();
        }
        Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("classes", java.util.Arrays.stream(QueryClass.values()).map(c -> c.key).toList());
        verification.put("concurrency", concurrency);
        verification.put("secondsPerClass", RESTORE_CHECK.toMillis() / 1000.0);
        verification.put("right", ok);
        verification.put("wrong", wrong);
        verification.put("errors", errors);
        r.put("verification", verification);
        r.put("stateDirMbAfter", sizeOf(serviceStateDir()) / (1024.0 * 1024));
        r.put("serviceRssMbAfter", CpuClock.residentBytes(service.pid()) / (1024.0 * 1024));
        say(String.format(java.util.Locale.ROOT, "restore: verified every query class after the restore: %,d right, "
                + "%d wrong, %d errors", ok, wrong, errors));
    }

    /** How long each query class is checked after the restore. */
    private static final Duration RESTORE_CHECK = Duration.ofSeconds(1);

    /** The service under test as a child JVM on {@link #servicePort}, state in {@code work/service-state}. */
    private ChildJvm startService(String bootstrap, Path log) {
        ChildJvm jvm = ChildJvm.start("service", s.serviceClassPath(), s.serviceJvmOptions(),
                CatalogViewsCli.class.getName(), List.of("serve",
                        "--bootstrap-servers", bootstrap,
                        "--http-port", Integer.toString(servicePort),
                        "--advertised-url", "http://localhost:" + servicePort,
                        "--state-dir", serviceStateDir().toString(),
                        "--rocksdb-memory-mb", Long.toString(s.rocksDbMemoryMb()),
                        "--application-id", s.applicationId(),
                        "--input-topic", s.inputTopic(),
                        "--partitions", Integer.toString(s.partitions())),
                log, servicePort);
        toClose.add(jvm);
        return jvm;
    }

    private Path serviceStateDir() {
        return workDir.resolve("service-state");
    }

    private void churn(HttpTarget service, HttpTarget ceiling, CatalogModel model, Materialization views,
                       String bootstrap, String serviceUrl) throws Exception {
        int concurrency = s.headlineConcurrency();
        List<QueryClass> classes = List.of(QueryClass.CATEGORY_PRICE, QueryClass.CATEGORY_UPDATED, QueryClass.DEEP_PAGE);
        Map<String, Object> churn = new LinkedHashMap<>();
        Map<String, Double> before = new LinkedHashMap<>();
        Map<String, Double> ceilingBefore = new LinkedHashMap<>();
        for (LoadResult r : runs) {
            if (r.target().equals(service.name()) && r.concurrency() == concurrency) {
                before.put(r.queryClass(), r.throughput());
            }
            if (ceiling != null && r.target().equals(ceiling.name()) && r.concurrency() == concurrency) {
                ceilingBefore.put(r.queryClass(), r.throughput());
            }
        }
        say("churn: " + s.churnUpdates() + " more price/stock changes");
        long base = views.lag().inputCommitted();
        long t0 = System.nanoTime();
        try (EventPublisher sender = Publishers.batched(bootstrap, s.inputTopic())) {
            ProgressBar bar = new ProgressBar(System.err, "publishing churn", s.churnUpdates());
            for (long k = 0; k < s.churnUpdates(); k++) {
                sender.publish(model.nextChange(), EventPublisher.Encoding.SINGLE_OBJECT);
                bar.update(sender.acknowledged());
            }
            sender.flush();
            bar.finish(sender.acknowledged());
        }
        long done = views.awaitCaughtUp(serviceUrl, model, base, base + s.churnUpdates(), Duration.ofMinutes(60),
                "materializing churn");
        double seconds = (done - t0) / 1e9;
        churn.put("changes", s.churnUpdates());
        churn.put("materializeSeconds", seconds);
        churn.put("materializedPerSecond", s.churnUpdates() / seconds);
        Workloads after = new Workloads(model, s.seed());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (QueryClass c : classes) {
            if (!s.classes().contains(c)) {
                continue;
            }
            LoadResult r = measure(service, workload(after, service, c), model, concurrency, "after-churn");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("class", c.key);
            row.put("before", before.get(c.key));
            row.put("after", r.throughput());
            row.put("ratio", before.get(c.key) == null ? null : r.throughput() / before.get(c.key));
            if (ceiling != null) {
                LoadResult ce = measure(ceiling, ceilingWorkload(c, (int) Math.round(r.meanBytes())), model,
                        concurrency, "after-churn");
                row.put("ceilingAfter", ce.throughput());
                Double cb = ceilingBefore.get(c.key);
                if (cb != null && before.get(c.key) != null) {
                    double fractionBefore = before.get(c.key) / cb;
                    double fractionAfter = r.throughput() / ce.throughput();
                    row.put("ceilingBefore", cb);
                    row.put("fractionBefore", fractionBefore);
                    row.put("fractionAfter", fractionAfter);
                    row.put("ratioOfCeilingFractions", fractionAfter / fractionBefore);
                }
            }
            rows.add(row);
        }
        churn.put("classes", rows);
        results.put("churn", churn);
    }

    private final Map<String, Query.Workload> workloadCache = new java.util.HashMap<>();

    /** The workload of a class for a target, built once per target and data version (deep cursors are walked once). */
    private Query.Workload workload(Workloads workloads, Target target, QueryClass c) {
        String key = System.identityHashCode(workloads) + "/" + target.name() + "/" + c.key;
        return workloadCache.computeIfAbsent(key, k -> workloads.http(c,
                target instanceof HttpTarget h ? cursorsOf(h) : (first, offset) -> "unused"));
    }

    private LoadResult measure(Target target, Query.Workload workload, CatalogModel model, int concurrency) {
        return measure(target, workload, model, concurrency, null);
    }

    private LoadResult measure(Target target, Query.Workload workload, CatalogModel model, int concurrency,
                               String phase) {
        return measure(target, workload, model, concurrency, phase, s.warmup(), s.duration());
    }

    private LoadResult measure(Target target, Query.Workload workload, CatalogModel model, int concurrency,
                               String phase, Duration warmup, Duration duration) {
        LoadResult r = LoadRunner.run(target, workload, model, concurrency, warmup, duration, s.seed());
        if (phase != null) {
            r = new LoadResult(r.target() + "/" + phase, r.queryClass(), r.concurrency(), r.seconds(), r.ok(),
                    r.wrong(), r.errors(), r.throughput(), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.meanBytes(),
                    r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores(), r.samples());
        }
        runs.add(r);
        checkpoint();
        out.printf(java.util.Locale.ROOT, "  %-26s %-17s c=%-3d %,10.0f/s  p50 %7.2f  p99 %7.2f  max %8.2f ms  "
                        + "%6.0f B  wrong %d  errors %d  cpu srv %.2f cli %.2f other %.2f%n", r.target(), r.queryClass(),
                r.concurrency(), r.throughput(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.meanBytes(), r.wrong(), r.errors(),
                r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores());
        for (String sample : r.samples()) {
            out.println("      " + sample);
        }
        return r;
    }

    /** Writes what is measured so far to {@code results-partial.json}, so that a run stopped halfway leaves its figures. */
    private void checkpoint() {
        try {
            Map<String, Object> partial = new LinkedHashMap<>(results);
            partial.put("queries", runs);
            partial.put("partial", true);
            JsonCheck.MAPPER.writeValue(runDir.resolve("results-partial.json").toFile(), partial);
        } catch (IOException | RuntimeException e) {
            out.println("cannot write results-partial.json: " + e);
        }
    }

    /** Constant answers of {@code size} bytes, asked the way the class asks (GET, or POST with a 100-id body). */
    private static Query.Workload ceilingWorkload(QueryClass c, int size) {
        String target = "/ceiling/" + size;
        Query q;
        if (c == QueryClass.BATCH_100) {
            StringBuilder body = new StringBuilder("{\"ids\":[");
            for (int j = 0; j < Workloads.BATCH_SIZE; j++) {
                body.append(j == 0 ? "\"" : ",\"").append(SyntheticCatalog.productId(j)).append('"');
            }
            q = Query.post(0, target, body.append("]}").toString().getBytes(StandardCharsets.UTF_8),
                    new Spec.Constant(size));
        } else {
            q = Query.get(0, target, new Spec.Constant(size));
        }
        return Query.Workload.pool(c, List.of(q));
    }

    /** Walks a target's cursors (200 items a page) to the item before a deep page; returns the last cursor. */
    private static Workloads.DeepCursors cursorsOf(HttpTarget target) {
        return (first, offset) -> {
            String base = Workloads.listingTarget(first).replace("&limit=" + first.limit(), "");
            String cursor = null;
            int consumed = 0;
            try (HttpConnection c = HttpConnection.to(target.baseUrl(), 60_000)) {
                while (consumed < offset) {
                    int limit = Math.min(200, offset - consumed);
                    String t = base + "&limit=" + limit + (cursor == null ? "" : "&cursor=" + Workloads.encode(cursor));
                    HttpConnection.Response r = c.exchange(HttpConnection.get(t), null);
                    if (r.status() != 200) {
                        throw new IllegalStateException(target.name() + " answered " + r.status() + " to " + t);
                    }
                    com.fasterxml.jackson.databind.JsonNode page = JsonCheck.MAPPER.readTree(r.body());
                    consumed += page.get("items").size();
                    if (page.get("nextCursor").isNull()) {
                        throw new IllegalStateException(target.name() + ": the cursor walk ended after " + consumed
                                + " items, expected more than " + offset);
                    }
                    cursor = page.get("nextCursor").asText();
                }
            } catch (IOException e) {
                throw new IllegalStateException("walking " + target.name() + " to offset " + offset + " failed", e);
            }
            return cursor;
        };
    }

    // ------------------------------------------------------------------ PostgreSQL

    private Path pgData;

    private String startPostgres() throws IOException, InterruptedException {
        Path script = workDir.resolve("postgres.sh");
        try (InputStream in = BenchRun.class.getResourceAsStream("scripts/postgres.sh")) {
            if (in == null) {
                throw new IllegalStateException("postgres.sh is missing from the harness jar");
            }
            Files.copy(in, script);
        }
        script.toFile().setExecutable(true);
        pgData = workDir.resolve("postgres").toAbsolutePath();
        // The data directory's parents must be reachable by the postgres user when running as root.
        for (Path p = pgData.getParent(); p != null; p = p.getParent()) {
            p.toFile().setExecutable(true, false);
        }
        int port = ChildJvm.freePort();
        say("starting PostgreSQL on 127.0.0.1:" + port + " (bench/scripts/postgres.sh)");
        Process p = new ProcessBuilder("bash", script.toString(), "start", pgData.toString(), Integer.toString(port),
                Long.toString(s.postgresSharedBuffersMb()))
                .redirectErrorStream(true).redirectOutput(runDir.resolve("postgres-script.log").toFile()).start();
        if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("postgres.sh start failed; see " + runDir.resolve("postgres-script.log")
                    + ":\n" + Files.readString(runDir.resolve("postgres-script.log")));
        }
        toClose.add(() -> {
            Process stop = new ProcessBuilder("bash", script.toString(), "stop", pgData.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            stop.waitFor(2, TimeUnit.MINUTES);
        });
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?reWriteBatchedInserts=true";
    }

    private long postgresPid() {
        try {
            return Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    // ------------------------------------------------------------------ helpers

    private void say(String message) {
        out.println("[bench] " + message);
        out.flush();
    }

    /** Bytes of the regular files under a directory (0 when it does not exist). */
    private static long sizeOf(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a leftover work directory is only disk space
        }
    }
}
