package io.catalogviews.bench.freshness;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.ReadLoadFigures;
import io.catalogviews.bench.results.ViewFreshness;
import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.ProductEvent;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One run of the freshness phase: the read mix starts ({@link ReadLoad}, unless its rate is 0), then changes of the
 * model's update stream are published at a steady rate for a while ({@link AckedPublisher}); once the broker has
 * acknowledged them, one change in {@link #PRODUCT_EVERY} is probed on the product view ({@link ProductViewProbes})
 * and one price change in {@link #CATEGORY_EVERY} on its category page ({@link CategoryPageProbes}), sparser because
 * each such probe polls. One in 25 made the polls a load of their own on the two shared cores: with a service
 * that kept up (p50 159 ms without them), one in 25 at a 10 ms interval measured the product view at p50 3 s, one in
 * 1 000 at 0.7 s (2026-12-02, 100 000 products, docs/benchmarks.md). One in 100 at 10 ms still gave the category
 * polls 1.7× the request-thread CPU of a 500 requests/s read mix once the service fell behind (async-profiler,
 * 2026-12-02); one in 250 at 20 ms keeps them a small share of the reads.
 *
 * @param serviceUrl where the probes and the read mix go
 */
public record FreshnessRun(String bootstrapServers, String topic, String serviceUrl, double rate, Duration duration,
                           List<Query.Workload> readMix, double readRate) {

    static final int PRODUCT_EVERY = 10;
    static final int CATEGORY_EVERY = 250;
    /** The slowest probes of each view that a run names, with when their change was acknowledged. */
    static final int SLOWEST_SHOWN = 5;
    /** How long the probes under way may take once the last change is sent (each gives up after 10 s). */
    private static final Duration PROBES_SETTLE = Duration.ofSeconds(15);

    /**
     * Runs it, applying the changes to {@code model}; {@code number} names the run. Tells {@code say} the slowest
     * probes of each view with the wall-clock time (UTC) their change was acknowledged, to find what held them in a
     * per-second record of the machine (docs/benchmarks/sampler.py).
     */
    public FreshnessFigures.Run run(int number, CatalogModel model, long seed, Consumer<String> say) {
        return run(number, model, seed, duration, say);
    }

    /**
     * A run of {@code warmup} whose figures are dropped: the service's JIT compiles the paths of changes and of reads
     * under changes (a load of new products alone leaves them cold, and its first seconds of changes then run at a
     * fraction of the steady speed), and the harness's own publisher and probes get compiled too. Returns the
     * changes sent.
     */
    public long warmUp(CatalogModel model, long seed, Duration warmup) {
        return run(0, model, seed, warmup, line -> { }).events();
    }

    private FreshnessFigures.Run run(int number, CatalogModel model, long seed, Duration length,
                                     Consumer<String> say) {
        ProductViewProbes product = new ProductViewProbes(serviceUrl);
        CategoryPageProbes category = new CategoryPageProbes(serviceUrl);
        ReadLoad reads = readRate > 0 && !readMix.isEmpty() ? new ReadLoad(serviceUrl, readMix, readRate) : null;
        if (reads != null) {
            reads.start(seed * 31 + number);
        }
        long sent = 0;
        long priceChanges = 0;
        double elapsed;
        try (AckedPublisher sender = new AckedPublisher(bootstrapServers, topic)) {
            long start = System.nanoTime();
            long end = start + length.toNanos();
            long interval = (long) (1e9 / rate);
            long next = start;
            while (next < end) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    if (wait > 200_000) {
                        LockSupport.parkNanos(wait);
                    }
                    continue;
                }
                ProductEvent e = model.nextChange();
                String id = e.getProductId();
                long version = e.getVersion();
                boolean probeProduct = sent % PRODUCT_EVERY == 0;
                boolean probeCategory = false;
                String categoryName = null;
                String brand = null;
                long price = 0;
                if (e.getChange() instanceof PriceChanged change) {
                    category.priceChanged(id, version);
                    probeCategory = priceChanges++ % CATEGORY_EVERY == 0;
                    if (probeCategory) {
                        int i = CatalogModel.index(id);
                        categoryName = model.categoriesOf(i).get(0);
                        brand = model.brand(i);
                        price = change.getPriceCents();
                    }
                }
                boolean byCategory = probeCategory;
                String c = categoryName;
                String b = brand;
                long p = price;
                sender.publish(e, ackAt -> {
                    if (probeProduct) {
                        product.probe(id, version, ackAt);
                    }
                    if (byCategory) {
                        category.probe(id, c, b, p, version, ackAt);
                    }
                });
                sent++;
                next += interval;
            }
            elapsed = (System.nanoTime() - start) / 1e9;
            sender.flush();
        }
        ViewFreshness productView = product.finish(PROBES_SETTLE);
        ViewFreshness categoryPages = category.finish(PROBES_SETTLE);
        say.accept(slowestLine("product view", product.slowest(SLOWEST_SHOWN)));
        say.accept(slowestLine("category pages", category.slowest(SLOWEST_SHOWN)));
        ReadLoadFigures readLoad = reads == null ? null : reads.stop();
        return new FreshnessFigures.Run(number, sent / elapsed, sent, productView, categoryPages, readLoad);
    }

    /** "  slowest product view probes (acknowledged, UTC → visible after): 12:00:01.250 920 ms, …". */
    static String slowestLine(String view, List<Latencies.Slow> slowest) {
        return "  slowest " + view + " probes (acknowledged, UTC → visible after): "
                + (slowest.isEmpty() ? "none"
                        : String.join(", ", slowest.stream().map(Latencies.Slow::toString).toList()));
    }
}
