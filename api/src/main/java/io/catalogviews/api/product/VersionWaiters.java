package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;

import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for the product view to reach a version ({@code minVersion}/{@code waitMs}) without parking a Jetty
 * thread per waiter: one scheduler thread re-reads the waited-for products every poll interval. Reads are
 * committed reads, so a version becomes visible at the commit after it was applied (≤ the commit interval).
 * The number of concurrent waiters is capped; beyond it a request is refused with 503.
 */
public final class VersionWaiters implements AutoCloseable {

    private record Waiter(String id, long minVersion, long deadlineMs, CompletableFuture<ProductLookup> result) {
    }

    private final ProductQueries queries;
    private final int maxWaiters;
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final ScheduledExecutorService scheduler;

    public VersionWaiters(ProductQueries queries, int maxWaiters, Duration pollInterval) {
        this.queries = queries;
        this.maxWaiters = maxWaiters;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "version-waiters");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::poll, pollInterval.toMillis(), pollInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Whether {@code lookup} answers a request for {@code minVersion}. */
    public static boolean reached(ProductLookup lookup, long minVersion) {
        Long current = lookup.currentVersion();
        return current != null && current >= minVersion;
    }

    /**
     * Completes with the first lookup of {@code id} that reached {@code minVersion}, or with the last lookup
     * when {@code deadlineMs} passes (the caller then answers 409 or 503).
     *
     * @throws ApiException 503 when too many requests are waiting already
     */
    public CompletableFuture<ProductLookup> await(String id, long minVersion, long deadlineMs) {
        if (count.incrementAndGet() > maxWaiters) {
            count.decrementAndGet();
            throw ApiException.unavailable("too many requests are waiting for versions (limit " + maxWaiters
                    + "); retry shortly", 1);
        }
        Waiter waiter = new Waiter(id, minVersion, deadlineMs, new CompletableFuture<>());
        waiters.add(waiter);
        return waiter.result();
    }

    private void poll() {
        long now = System.currentTimeMillis();
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            ProductLookup lookup;
            try {
                lookup = queries.get(w.id());
            } catch (RuntimeException e) {
                it.remove();
                count.decrementAndGet();
                w.result().completeExceptionally(e);
                continue;
            }
            if (reached(lookup, w.minVersion()) || now >= w.deadlineMs()) {
                it.remove();
                count.decrementAndGet();
                w.result().complete(lookup);
            }
        }
    }

    public int waiting() {
        return count.get();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        for (Waiter w : waiters) {
            w.result().completeExceptionally(ApiException.unavailable("the instance is shutting down", 1));
        }
        waiters.clear();
    }
}
