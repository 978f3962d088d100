package io.catalogviews.cli;

import io.catalogviews.cli.demo.SyntheticCatalog;
import io.catalogviews.service.CatalogService;
import io.catalogviews.service.config.KafkaClientConfig;
import io.catalogviews.service.config.OperationsConfig;
import io.catalogviews.topology.EventCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

    @Override
    public Integer call() throws InterruptedException {
        OperationsConfig operations = options.toOperations();
        CatalogService service = CatalogService.start(options.toConfig(), operations, options.toLimits());
        try {
            load(service, operations.kafkaClient());
            printExamples(service.httpPort());
        } catch (RuntimeException | InterruptedException e) {
            service.close();
            throw e;
        }
        if (exitWhenLoaded) {
            service.close();
            return 0;
        }
        ServeCommand.runUntilStopped(service);
        return 0;
    }

    private void load(CatalogService service, KafkaClientConfig kafkaClient) throws InterruptedException {
        SyntheticCatalog catalog = new SyntheticCatalog(seed, SyntheticCatalog.DEMO_BASE_TIME);
        ProgressBar published = new ProgressBar(System.err, "publishing products", products);
        try (EventPublisher publisher = new EventPublisher(service.bootstrapServers(),
                service.config().inputTopic(), kafkaClient)) {
            for (int i = 0; i < products; i++) {
                publisher.publish(catalog.upsert(i), EventPublisher.Encoding.SINGLE_OBJECT);
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

    private void printExamples(int httpPort) {
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
        System.out.println();
    }
}
