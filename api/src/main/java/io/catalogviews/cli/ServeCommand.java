package io.catalogviews.cli;

import io.catalogviews.service.CatalogService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code catalog-views serve}: runs one instance until SIGTERM or Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the service: consume product events, keep the views, answer HTTP queries.",
        footer = ServeOptions.FOOTER)
public final class ServeCommand implements Callable<Integer> {

    @Mixin
    ServeOptions options;

    @Override
    public Integer call() throws InterruptedException {
        CatalogService service = CatalogService.start(options.toConfig(), options.toOperations(),
                options.toLimits());
        runUntilStopped(service);
        return 0;
    }

    /** Blocks until the JVM is asked to stop, then closes the service in order (streams, HTTP, broker). */
    static void runUntilStopped(CatalogService service) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            stopped.countDown();
        }, "catalog-views-shutdown"));
        System.out.println("catalog-views is serving on http://localhost:" + service.httpPort()
                + " (Kafka: " + service.bootstrapServers() + "); Ctrl-C stops it.");
        stopped.await();
    }
}
