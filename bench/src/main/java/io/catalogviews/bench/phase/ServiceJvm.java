package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.cli.CatalogViewsCli;

import java.nio.file.Path;
import java.util.List;

/**
 * The service under test: {@code catalog-views serve} as a child JVM from the service's class path
 * ({@link BenchSettings#serviceClassPath()}), always on the same HTTP port, state directory ({@code work/service-state}),
 * broker and application id, so that the restore phase can stop it and start it again as the same instance.
 */
public final class ServiceJvm {

    private final RunContext ctx;
    private final String bootstrapServers;
    private final int port = ChildJvm.freePort();
    private ChildJvm current;

    public ServiceJvm(RunContext ctx, String bootstrapServers) {
        this.ctx = ctx;
        this.bootstrapServers = bootstrapServers;
    }

    /** Starts the service, its output in {@code log}; it is stopped when the run ends. */
    public ChildJvm start(Path log) {
        BenchSettings s = ctx.settings();
        current = ctx.resources().add(ChildJvm.start("service", s.serviceClassPath(), s.serviceJvmOptions(),
                s.serviceEnvironment(),
                CatalogViewsCli.class.getName(), List.of("serve",
                        "--bootstrap-servers", bootstrapServers,
                        "--http-port", Integer.toString(port),
                        "--advertised-url", "http://localhost:" + port,
                        "--state-dir", stateDir().toString(),
                        "--rocksdb-memory-mb", Long.toString(s.rocksDbMemoryMb()),
                        "--application-id", s.applicationId(),
                        "--input-topic", s.inputTopic(),
                        "--partitions", Integer.toString(s.partitions())),
                log, port));
        return current;
    }

    /** Stops the running service cleanly (SIGTERM: Kafka Streams closes with LEAVE_GROUP) and waits for it. */
    public void stop() throws Exception {
        ctx.resources().closeNow(current);
    }

    /** The JVM started last. */
    public ChildJvm jvm() {
        return current;
    }

    public int port() {
        return port;
    }

    public Path stateDir() {
        return ctx.workDir().resolve("service-state");
    }
}
