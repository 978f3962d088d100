package io.catalogviews.bench.freshness;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.results.ViewFreshness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Freshness of the product view: once the broker has acknowledged a change, a probe asks
 * {@code GET /v1/products/{id}?minVersion=v&waitMs=10000}, which the service answers as soon as it holds that version
 * (the contract's wait), so the figure is exact to one round trip: acknowledgement → answer with the version.
 */
final class ProductViewProbes {

    static final String VIEW = "product view (GET /v1/products/{id}?minVersion=v&waitMs=10000)";

    private final ThreadLocal<HttpConnection> connections;
    private final ExecutorService probes = Executors.newFixedThreadPool(128, r -> {
        Thread t = new Thread(r, "freshness-product-probe");
        t.setDaemon(true);
        return t;
    });
    private final Latencies latencies = new Latencies();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    ProductViewProbes(String serviceUrl) {
        this.connections = ThreadLocal.withInitial(() -> HttpConnection.to(serviceUrl, 15_000));
    }

    /** Probes change {@code version} of {@code productId}, acknowledged at {@code ackAt} (nanoTime). */
    void probe(String productId, long version, long ackAt) {
        started.incrementAndGet();
        byte[] head = HttpConnection.get("/v1/products/" + productId + "?minVersion=" + version + "&waitMs=10000");
        probes.execute(() -> {
            HttpConnection c = connections.get();
            try {
                HttpConnection.Response r = c.exchange(head, null);
                long at = System.nanoTime();
                if (r.status() == 200) {
                    JsonNode n = JsonCheck.MAPPER.readTree(r.body());
                    if (n.path("version").asLong() >= version) {
                        latencies.add(at - ackAt);
                        return;
                    }
                    errors.incrementAndGet();
                } else if (r.status() == 409) {
                    timeouts.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                }
            } catch (IOException | RuntimeException e) {
                c.close();
                errors.incrementAndGet();
            }
        });
    }

    /** The {@code n} slowest probes so far, slowest first. */
    List<Latencies.Slow> slowest(int n) {
        return latencies.slowest(n);
    }

    /** Waits up to {@code wait} for the probes under way; the figures of every probe. */
    ViewFreshness finish(Duration wait) {
        return latencies.finish(probes, wait, VIEW, started.get(), timeouts.get(), 0, errors.get(), null);
    }
}
