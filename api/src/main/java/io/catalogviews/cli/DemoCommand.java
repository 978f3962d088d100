package io.catalogviews.cli;

import io.catalogviews.cli.demo.SyntheticCatalog;
import io.catalogviews.cli.registry.SchemaRegistryOptions;
import io.catalogviews.cli.registry.SchemaRegistryProcess;
import io.catalogviews.events.codec.SchemaVersions;
import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.events.registry.SchemaRegistryClient;
import io.catalogviews.service.CatalogService;
import io.catalogviews.service.ServiceConfig;
import io.catalogviews.service.config.KafkaClientConfig;
import io.catalogviews.service.config.OperationsConfig;
import io.catalogviews.topology.EventCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code catalog-views demo}: {@code serve} plus a synthetic catalog published through Kafka. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the service and publish a synthetic catalog to it, then print example queries.",
        footer = ServeOptions.FOOTER)
public final class DemoCommand implements Callable<Integer> {

    @Mixin
    ServeOptions options;

    @Option(names = "--products", defaultValue = "${env:CATALOG_VIEWS_DEMO_PRODUCTS:-100000}",
            description = "Products in the synthetic catalog. Default: ${DEFAULT-VALUE}.")
    int products;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the synthetic catalog. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--exit-when-loaded", description = "Stop once the catalog is loaded and the examples printed "
            + "(for scripts and tests).")
    boolean exitWhenLoaded;

    @Option(names = "--schema-registry", description = "Also start a schema registry (Apicurio Registry "
            + SchemaRegistryProcess.VERSION + ", as a child process on a free port of 127.0.0.1, its data under the "
            + "state dir), register the event schema there and publish the catalog in the Confluent framing, as a "
            + "shop's producers would. Needs the registry's distribution, which the build unpacks beside the jar.")
    boolean startSchemaRegistry;

    @Option(names = "--schema-registry-dist", paramLabel = "<dir>",
            description = "Where the unpacked Apicurio Registry distribution (" + SchemaRegistryProcess.RUNNER_JAR
                    + " and lib/) is. Env: " + SchemaRegistryProcess.DIST_ENV + ". Default: "
                    + SchemaRegistryProcess.DIST_FOLDER + "/ beside the executable jar.")
    Path schemaRegistryDist;

    @Override
    public Integer call() throws InterruptedException {
        OperationsConfig operations = options.toOperations();
        ServiceConfig config = options.toConfig();
        SchemaRegistryProcess registry = startSchemaRegistry ? startRegistry(config) : null;
        if (registry != null) {
            config = config.withSchemaRegistry(RegistryClientSettings.of(registry.confluentApiUrl()));
        }
        CatalogService service;
        try {
            service = CatalogService.start(config, operations, options.toLimits());
        } catch (RuntimeException e) {
            if (registry != null) {
                registry.close();
            }
            throw e;
        }
        try {
            load(service, operations.kafkaClient());
            printExamples(service.httpPort(), registry);
        } catch (RuntimeException | InterruptedException e) {
            service.close();
            if (registry != null) {
                registry.close();
            }
            throw e;
        }
        if (exitWhenLoaded) {
            service.close();
            if (registry != null) {
                registry.close();
            }
            return 0;
        }
        // On Ctrl-C the service's shutdown hook closes it and the registry's own hook stops the child process.
        ServeCommand.runUntilStopped(service);
        return 0;
    }

    private SchemaRegistryProcess startRegistry(ServiceConfig config) {
        if (options.schemaRegistry.configured()) {
            throw new IllegalArgumentException("--schema-registry starts a schema registry; it cannot be combined "
                    + "with " + SchemaRegistryOptions.URL_OPTION + " (the demo publishes to that one by itself)");
        }
        String expected = SchemaRegistryProcess.besideCode().map(Path::toString)
                .orElse(SchemaRegistryProcess.DIST_FOLDER);
        Path distribution = SchemaRegistryProcess.findDistribution(schemaRegistryDist).orElseThrow(() ->
                new IllegalArgumentException("--schema-registry needs Apicurio Registry's runnable distribution ("
                        + SchemaRegistryProcess.RUNNER_JAR + " and lib/), which the build unpacks into " + expected
                        + " (mvn -B -pl api -am package); or unpack io.apicurio:apicurio-registry-app:"
                        + SchemaRegistryProcess.VERSION + ":tar.gz:all and point --schema-registry-dist at it"));
        System.err.println("Starting a schema registry (Apicurio Registry " + SchemaRegistryProcess.VERSION
                + ") from " + distribution + " ...");
        return SchemaRegistryProcess.start(distribution, config.stateDir().resolve("schema-registry"), 0);
    }

    private void load(CatalogService service, KafkaClientConfig kafkaClient) throws InterruptedException {
        SyntheticCatalog catalog = new SyntheticCatalog(seed, SyntheticCatalog.DEMO_BASE_TIME);
        RegistryClientSettings registry = service.config().schemaRegistry();
        int schemaId = 0;
        if (registry != null) {
            String subject = SchemaRegistryOptions.valueSubject(service.config().inputTopic());
            schemaId = SchemaRegistryClient.create(registry).register(subject, SchemaVersions.current());
            System.err.println("Registered the event schema under subject " + subject + " (schema id " + schemaId
                    + "); publishing in the Confluent framing");
        }
        ProgressBar published = new ProgressBar(System.err, "publishing products", products);
        try (EventPublisher publisher = new EventPublisher(service.bootstrapServers(),
                service.config().inputTopic(), kafkaClient)) {
            for (int i = 0; i < products; i++) {
                if (registry != null) {
                    publisher.publishFramed(catalog.upsert(i), schemaId);
                } else {
                    publisher.publish(catalog.upsert(i), EventPublisher.Encoding.SINGLE_OBJECT);
                }
                published.update(publisher.acknowledged());
            }
            publisher.flush();
            published.finish(publisher.acknowledged());
        }
        // Waits until every published event has been processed (applied, or stale when re-run on old state).
        EventCounters counters = service.counters();
        ProgressBar applied = new ProgressBar(System.err, "materializing views", products);
        long deadline = System.currentTimeMillis() + 600_000;
        while (processed(counters) < products && System.currentTimeMillis() < deadline) {
            applied.update(processed(counters));
            Thread.sleep(100); // a progress display, not a test: polling is what it shows
        }
        applied.finish(processed(counters));
    }

    private static long processed(EventCounters c) {
        return c.applied() + c.stale() + c.deadLettered();
    }

    private void printExamples(int httpPort, SchemaRegistryProcess registry) {
        String base = "http://localhost:" + httpPort;
        String a = SyntheticCatalog.productId(0);
        String b = SyntheticCatalog.productId(Math.min(products - 1, 42));
        String c = SyntheticCatalog.productId(Math.min(products - 1, 4242));
        System.out.println();
        System.out.println("The demo catalog of " + products + " products is loaded. Try:");
        System.out.println("  curl -i " + base + "/v1/products/" + a);
        System.out.println("  curl '" + base + "/v1/products/" + b + "?minVersion=1&waitMs=1000'");
        System.out.println("  curl -X POST -H 'Content-Type: application/json' -d '{\"ids\":[\"" + a + "\",\""
                + b + "\",\"" + c + "\",\"no-such-id\"]}' " + base + "/v1/products/batch");
        System.out.println("  curl " + base + "/health/ready");
        if (registry != null) {
            System.out.println("The schema registry (Confluent-compatible API) is at " + registry.confluentApiUrl()
                    + ":");
            System.out.println("  curl " + registry.confluentApiUrl() + "/subjects");
        }
        System.out.println();
    }
}
