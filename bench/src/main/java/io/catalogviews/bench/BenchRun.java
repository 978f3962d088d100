package io.catalogviews.bench;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.observe.ServiceObserver;
import io.catalogviews.bench.phase.ChurnPhase;
import io.catalogviews.bench.phase.BuildProbe;
import io.catalogviews.bench.phase.Dirs;
import io.catalogviews.bench.phase.FreshnessPhase;
import io.catalogviews.bench.phase.LoadPhase;
import io.catalogviews.bench.phase.MemoryPhase;
import io.catalogviews.bench.phase.PeersPhase;
import io.catalogviews.bench.phase.QueryPhase;
import io.catalogviews.bench.phase.QueryRuns;
import io.catalogviews.bench.phase.Resources;
import io.catalogviews.bench.phase.RestorePhase;
import io.catalogviews.bench.phase.RunContext;
import io.catalogviews.bench.phase.StartPhase;
import io.catalogviews.bench.phase.TargetWorkloads;
import io.catalogviews.bench.report.Report;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.BrokerProcess;
import io.catalogviews.bench.results.BuildInfo;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.DeepPage;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.results.Machine;
import io.catalogviews.bench.results.MemoryFigures;
import io.catalogviews.bench.results.PostgresIngest;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.results.RunSettings;
import io.catalogviews.bench.results.ServiceProcess;
import io.catalogviews.bench.service.Materialization;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * One benchmark run, phase by phase, each phase a class returning its figures: {@link StartPhase} (broker and
 * service, child JVMs), {@link LoadPhase} (publish, materialize, the pass-through yardstick), {@link PeersPhase}
 * (the HTTP ceiling, PostgreSQL and its ingest), {@link QueryPhase} (PostgreSQL tuned, then verified runs class by
 * class and concurrency by concurrency, {@code --runs} times), {@link FreshnessPhase}, {@link ChurnPhase},
 * {@link MemoryPhase},
 * {@link RestorePhase}; then the report. The figures measured so far are written to {@code results-partial.json}
 * as the run goes, so that a run stopped halfway leaves them.
 */
public final class BenchRun {

    private final BenchSettings s;
    private final PrintStream out;
    private Path runDir;
    private Machine machine;
    private QueryRuns runs;

    // The figures measured so far; null: that phase has not run (or does not run).
    private BrokerProcess broker;
    private ServiceProcess serviceProcess;
    private LoadFigures load;
    private PostgresIngest postgresIngest;
    private PostgresSetup postgres;
    private List<DeepPage> deepPages;
    private FreshnessFigures freshness;
    private BuildInfo build;
    private ChurnFigures churn;
    private MemoryFigures memory;
    private RestoreFigures restore;
    private BenchResults results;

    public BenchRun(BenchSettings settings, PrintStream out) {
        this.s = settings;
        this.out = out;
    }

    /** Runs everything; returns the run's directory (results.json, summary.md, charts). */
    public Path run() throws Exception {
        runDir = s.outputDir().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Path workDir = runDir.resolve("work");
        Files.createDirectories(workDir);
        machine = Machine.current();
        build = BuildProbe.of(s.serviceClassPath());
        try (Resources resources = new Resources(out)) {
            execute(new RunContext(s, out, runDir, workDir, resources));
        } finally {
            if (!s.keepData()) {
                Dirs.deleteQuietly(workDir);
            }
        }
        results = Report.write(runDir, measured(), s);
        return runDir;
    }

    /** The results of the run, once {@link #run()} returned. */
    public BenchResults results() {
        return results;
    }

    private void execute(RunContext ctx) throws Exception {
        StartPhase.Started started = new StartPhase(ctx).run();
        broker = started.broker();
        serviceProcess = started.serviceProcess();

        CatalogModel model = new CatalogModel(new SyntheticCatalog(s.seed()), s.products());
        runs = new QueryRuns(ctx, model, this::checkpoint);
        Materialization views = ctx.resources().add(
                new Materialization(started.bootstrapServers(), s.applicationId(), s.inputTopic()));
        load = new LoadPhase(ctx).run(model, views, started);
        checkpoint();

        PeersPhase.Peers peers = new PeersPhase(ctx).run(load.materializedPerSecond());
        if (peers.postgres() != null) {
            postgresIngest = peers.postgres().ingest();
            postgres = peers.postgres().setup();
        }
        HttpTarget service = (started.servicePid() > 0
                ? new HttpTarget(Report.SERVICE, started.serviceUrl(), started.servicePid())
                : new HttpTarget(Report.SERVICE, started.serviceUrl()))
                .observedBy(new ServiceObserver(started.serviceUrl(), started.servicePid(), s.applicationId()));
        TargetWorkloads workloads = new TargetWorkloads();
        QueryPhase.Result queries = new QueryPhase(ctx, runs, workloads).run(model, service, peers);
        deepPages = queries.deepPages();
        if (queries.tuning() != null) {
            postgres = postgres.tuned(queries.tuning(), queries.plans());
        }
        checkpoint();

        if (s.freshnessRate() > 0 && !s.freshnessDuration().isZero()) {
            freshness = new FreshnessPhase(ctx, workloads).run(model, views, started, service, queries.expected());
            checkpoint();
        }
        if (s.churnUpdates() > 0) {
            churn = new ChurnPhase(ctx, runs, workloads).run(model, views, started, service, peers.ceiling());
        }
        memory = new MemoryPhase(ctx).run(started.servicePid());
        if (s.restore()) {
            if (started.service() == null) {
                ctx.say("restore: skipped (--url: the harness did not start the service, so it cannot restart it)");
                restore = RestoreFigures.skipped("--url: a deployment the harness did not start");
            } else {
                restore = new RestorePhase(ctx, runs, workloads).run(started.service(), model, views);
            }
            checkpoint();
        }
    }

    private BenchResults measured() {
        return new BenchResults(RunSettings.of(s), machine, broker, serviceProcess, load, postgresIngest,
                postgres, deepPages, freshness, churn, memory, restore, runs == null ? List.of() : runs.all(), null,
                null, null, null, null, build, null);
    }

    /** Writes what is measured so far to {@code results-partial.json}. */
    private void checkpoint() {
        try {
            JsonCheck.MAPPER.writeValue(runDir.resolve("results-partial.json").toFile(), measured().asPartial());
        } catch (IOException | RuntimeException e) {
            out.println("cannot write results-partial.json: " + e);
        }
    }
}
