package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.results.BrokerProcess;
import io.catalogviews.bench.results.ServiceProcess;
import io.catalogviews.broker.ChildProcessKafkaBroker;
import io.catalogviews.broker.EmbeddedKafkaBroker;

import java.time.Duration;
import java.util.Map;

/**
 * The first phase: a Kafka broker (a child JVM, KRaft, one node) unless {@code --bootstrap-servers} names one,
 * and the service under test (a child JVM from the service's jar) unless {@code --url} names a deployment.
 */
public final class StartPhase {

    /**
     * @param service the service the harness started, or null for a deployment given with {@code --url}
     * @param broker  the broker the harness started, or null for one given with {@code --bootstrap-servers}
     */
    public record Started(String bootstrapServers, String serviceUrl, ServiceJvm service, BrokerProcess broker,
                          ServiceProcess serviceProcess) {

        /** The service's process id, or -1 for a deployment the harness did not start. */
        public long servicePid() {
            return serviceProcess.pid();
        }
    }

    private final RunContext ctx;

    public StartPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    public Started run() {
        BenchSettings s = ctx.settings();
        String bootstrap = s.bootstrapServers();
        BrokerProcess brokerProcess = null;
        if (bootstrap == null) {
            ctx.say("starting a Kafka broker (child JVM, KRaft, one node; JVM " + s.brokerJvmOptions() + ")");
            ChildProcessKafkaBroker broker = ctx.resources().add(ChildProcessKafkaBroker.start(
                    EmbeddedKafkaBroker.Config.of(ctx.workDir().resolve("kafka")),
                    EmbeddedKafkaBroker.DEFAULT_START_TIMEOUT, s.brokerJvmOptions()));
            bootstrap = broker.bootstrapServers();
            brokerProcess = new BrokerProcess(bootstrap, broker.pid().orElse(-1));
        }
        String serviceUrl = s.serviceUrl();
        ServiceJvm service = null;
        long servicePid = -1;
        if (serviceUrl == null) {
            service = new ServiceJvm(ctx, bootstrap);
            ctx.say("starting the service under test (child JVM) on port " + service.port());
            service.start(ctx.runDir().resolve("service.log")).awaitHttp("/health/ready", Duration.ofMinutes(3));
            serviceUrl = service.jvm().url();
            servicePid = service.jvm().pid();
        }
        return new Started(bootstrap, serviceUrl, service, brokerProcess,
                new ServiceProcess(serviceUrl, servicePid, s.serviceJvmOptions(),
                        servicePid < 0 ? Map.of() : s.serviceEnvironment(), s.rocksDbMemoryMb()));
    }
}
