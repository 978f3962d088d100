package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.peer.JdbcTarget;
import io.catalogviews.bench.peer.PgSchema;
import io.catalogviews.bench.peer.PgSession;
import io.catalogviews.bench.peer.PgSettings;
import io.catalogviews.bench.peer.PostgresServer;
import io.catalogviews.bench.report.Report;
import io.catalogviews.bench.results.PostgresIngest;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.service.BenchServers;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.cli.ProgressBar;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The service's peers, each a child JVM from the harness's class path with the service's JVM options: the HTTP
 * ceiling (a bare server answering constant bytes), and PostgreSQL loaded with the same events (its ingest timed)
 * behind the same kind of HTTP server and through JDBC.
 */
public final class PeersPhase {

    /**
     * The peers that run.
     *
     * @param ceiling  the HTTP ceiling, or null with {@code --no-ceiling}
     * @param postgres PostgreSQL, or null with {@code --no-postgres}
     */
    public record Peers(HttpTarget ceiling, Postgres postgres) {
    }

    /** PostgreSQL as two targets, with its ingest and its set-up. */
    public record Postgres(HttpTarget http, JdbcTarget jdbc, PostgresIngest ingest, PostgresSetup setup) {
    }

    private final RunContext ctx;

    public PeersPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    /** Starts the peers; {@code materializedPerSecond} is the service's rate, beside which PostgreSQL's ingest is put. */
    public Peers run(double materializedPerSecond) throws Exception {
        BenchSettings s = ctx.settings();
        HttpTarget ceiling = s.ceiling() ? startCeiling() : null;
        Postgres postgres = s.postgres() ? startPostgres(materializedPerSecond) : null;
        return new Peers(ceiling, postgres);
    }

    private HttpTarget startCeiling() {
        int port = ChildJvm.freePort();
        ChildJvm ceiling = startServer("ceiling", List.of("ceiling", Integer.toString(port)), port);
        return new HttpTarget(Report.CEILING, ceiling.url(), ceiling.pid());
    }

    private Postgres startPostgres(double materializedPerSecond) throws Exception {
        BenchSettings s = ctx.settings();
        int port = ChildJvm.freePort();
        ctx.say("starting PostgreSQL on 127.0.0.1:" + port + " (bench/scripts/postgres.sh)");
        PostgresServer server = ctx.resources().add(PostgresServer.start(ctx.workDir(), port,
                s.postgresSharedBuffersMb(), ctx.runDir().resolve("postgres-script.log")));
        String jdbcUrl = server.jdbcUrl();
        long pgPid = server.pid();
        ctx.say("loading PostgreSQL with the same events (batched upserts, indexes and the facet counts' trigger in "
                + "place)");
        long events = s.products() + s.updates();
        CatalogModel replay = new CatalogModel(new SyntheticCatalog(s.seed()), s.products());
        PostgresIngest ingest;
        String version;
        Map<String, String> settings;
        try (PgSession session = new PgSession(jdbcUrl)) {
            PgSchema.create(session.connection());
            double seconds = PgSchema.load(session.connection(), replay, s.products(), s.updates(),
                    new ProgressBar(System.err, "PostgreSQL upserts", events));
            ingest = PostgresIngest.of(events, seconds, PgSchema.BATCH, materializedPerSecond);
            ctx.say(String.format(Locale.ROOT, "PostgreSQL ingest: %,.0f events/s", ingest.eventsPerSecond()));
            version = PgSettings.version(session.connection());
            settings = PgSettings.of(session.connection());
        }
        int httpPort = ChildJvm.freePort();
        // The first size until the tuning has measured them all (PgPool resizes).
        int pool = s.postgresPools().get(0);
        ChildJvm front = startServer("postgres-http", List.of("postgres", Integer.toString(httpPort), jdbcUrl,
                Integer.toString(pool)), httpPort);
        JdbcTarget jdbc = ctx.resources().add(new JdbcTarget(jdbcUrl, pgPid, pool));
        return new Postgres(new HttpTarget(Report.PG_HTTP, front.url(), pgPid, front.pid()), jdbc, ingest,
                new PostgresSetup(jdbcUrl, pool, PgSchema.DDL, version, settings, PgSchema.FACET_STRATEGY, pool,
                        null, null));
    }

    /** One of {@link BenchServers}, from the harness's class path: the service's jar does not hold them. */
    private ChildJvm startServer(String name, List<String> args, int port) {
        BenchSettings s = ctx.settings();
        ChildJvm jvm = ctx.resources().add(ChildJvm.start(name, s.harnessClassPath(), s.serviceJvmOptions(),
                s.serviceEnvironment(),
                BenchServers.class.getName(), args, ctx.runDir().resolve(name + ".log"), port));
        jvm.awaitHttp("/health/ready", Duration.ofMinutes(1));
        return jvm;
    }
}
