package io.catalogviews.bench.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.cli.EventPublisher;
import io.catalogviews.events.ProductEvent;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Freshness of the product view under a steady background update rate: changes are sent at {@code rate} per
 * second; for one in {@code sampleEvery} of them a probe asks {@code GET /v1/products/{id}?minVersion=v&waitMs=10000}
 * right after the send call, and the freshness is the time from the send call to the answer with that version
 * (an upper bound: it includes one HTTP round trip).
 */
public final class Freshness {

    /** The measured freshness; percentiles in milliseconds. */
    public record Result(String view, double rate, double achievedRate, long events, long probes, long timeouts,
                         long errors, double p50Ms, double p95Ms, double p99Ms, double maxMs) {
    }

    private Freshness() {
    }

    public static Result run(EventPublisher sender, CatalogModel model, String serviceUrl, double rate, Duration duration,
                             int sampleEvery) {
        ExecutorService probes = Executors.newFixedThreadPool(128, r -> {
            Thread t = new Thread(r, "freshness-probe");
            t.setDaemon(true);
            return t;
        });
        ThreadLocal<HttpConnection> connections = ThreadLocal.withInitial(() -> HttpConnection.to(serviceUrl, 15_000));
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong timeouts = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long interval = (long) (1e9 / rate);
        long sent = 0;
        long probesStarted = 0;
        long next = start;
        while (next < end) {
            long now = System.nanoTime();
            if (now < next) {
                long wait = next - now;
                if (wait > 200_000) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                continue;
            }
            ProductEvent e = model.nextChange();
            long sentAt = System.nanoTime();
            sender.publish(e, EventPublisher.Encoding.SINGLE_OBJECT);
            if (sent % sampleEvery == 0) {
                probesStarted++;
                String target = "/v1/products/" + e.getProductId() + "?minVersion=" + e.getVersion() + "&waitMs=10000";
                long version = e.getVersion();
                probes.execute(() -> probe(connections.get(), target, version, sentAt, latencies, timeouts, errors));
            }
            sent++;
            next += interval;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        sender.flush();
        probes.shutdown();
        try {
            probes.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long[] sorted;
        synchronized (latencies) {
            sorted = latencies.stream().mapToLong(Long::longValue).toArray();
        }
        Arrays.sort(sorted);
        return new Result("product view (GET /v1/products/{id})", rate, sent / elapsed, sent, probesStarted,
                timeouts.get(), errors.get(), pct(sorted, 0.5), pct(sorted, 0.95), pct(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    }

    private static void probe(HttpConnection c, String target, long version, long sentAt, List<Long> latencies,
                              AtomicLong timeouts, AtomicLong errors) {
        try {
            HttpConnection.Response r = c.exchange(HttpConnection.get(target), null);
            long at = System.nanoTime();
            if (r.status() == 200) {
                JsonNode n = JsonCheck.MAPPER.readTree(r.body());
                if (n.path("version").asLong() >= version) {
                    latencies.add(at - sentAt);
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
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
    }
}
