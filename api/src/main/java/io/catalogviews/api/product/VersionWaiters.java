package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.query.ProductCommits;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * Waits for the product view to reach a version ({@code minVersion}/{@code waitMs}) without parking a Jetty
 * thread per waiter and without polling: a waiter sleeps until a commit of its product ({@link ProductCommits}) or
 * its deadline. On a commit notice, the product is read once for all its waiters; at the deadline, the waiters due
 * are read in one batch. Reads are the committed reads of {@link ProductQueries}, so a version a waiter answers
 * with is never taken back by a crash.
 *
 * <p>Costs: an idle waiter costs a map entry and a scheduled timeout, nothing per unit of time; a commit costs one
 * map lookup per committed product on the stream thread, plus one read per product that has waiters, on this
 * class's own thread. The number of concurrent waiters is capped; beyond it a request is refused with 503.
 *
 * <p>A waiter registers first and reads after, so a commit that lands between the caller's first read and the
 * registration is not missed. When the local copy of a partition closes (it moved away), its waiters read at once:
 * the read now fails and the request is refused with 503 like any read of a partition that is not here.
 */
public final class VersionWaiters implements ProductCommits.Listener, AutoCloseable {

    private static final class Waiter {
        final String id;
        final long minVersion;
        final CompletableFuture<ProductLookup> result = new CompletableFuture<>();
        final AtomicBoolean done = new AtomicBoolean();
        volatile ScheduledFuture<?> timeout;

        Waiter(String id, long minVersion) {
            this.id = id;
            this.minVersion = minVersion;
        }
    }

    private final ProductQueries queries;
    private final ToIntFunction<String> partitionOf;
    private final int maxWaiters;
    private final Map<String, Set<Waiter>> byId = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final ConcurrentLinkedQueue<Waiter> due = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** One thread: timeouts, and the reads that commits and timeouts ask for. */
    private final ScheduledThreadPoolExecutor thread;

    /**
     * @param commits     where commits of the local product partitions are announced
     * @param partitionOf the product-view partition of a product id (to find the waiters of a closed partition)
     * @param maxWaiters  concurrent waiters before 503
     */
    public VersionWaiters(ProductQueries queries, ProductCommits commits, ToIntFunction<String> partitionOf,
                          int maxWaiters) {
        if (maxWaiters < 1) {
            throw new IllegalArgumentException("at least one waiter must be allowed, not " + maxWaiters);
        }
        this.queries = queries;
        this.partitionOf = partitionOf;
        this.maxWaiters = maxWaiters;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "version-waiters");
            t.setDaemon(true);
            return t;
        });
        thread.setRemoveOnCancelPolicy(true); // a waiter answered early takes its timeout with it
        commits.listen(this);
    }

    /** Whether {@code lookup} answers a request for {@code minVersion}. */
    public static boolean reached(ProductLookup lookup, long minVersion) {
        Long current = lookup.currentVersion();
        return current != null && current >= minVersion;
    }

    /**
     * Completes with the first lookup of {@code id} that reached {@code minVersion} (or that failed), or with a
     * fresh lookup when {@code deadlineMs} passes (the caller then answers 409 or 503).
     *
     * @throws ApiException 503 when too many requests are waiting already
     */
    public CompletableFuture<ProductLookup> await(String id, long minVersion, long deadlineMs) {
        if (count.incrementAndGet() > maxWaiters) {
            count.decrementAndGet();
            throw ApiException.unavailable("too many requests are waiting for versions (limit " + maxWaiters
                    + "); retry shortly", 1);
        }
        Waiter waiter = new Waiter(id, minVersion);
        // Added inside compute: finish() removes an emptied set under the same key lock, so a waiter can never be
        // added to a set that has just left the map (and miss the commits of its product).
        byId.compute(id, (key, set) -> {
            Set<Waiter> waiters = set != null ? set : ConcurrentHashMap.newKeySet();
            waiters.add(waiter);
            return waiters;
        });
        try {
            waiter.timeout = thread.schedule(() -> expire(waiter),
                    Math.max(0, deadlineMs - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            thread.execute(() -> read(id));
        } catch (RejectedExecutionException e) {
            finish(waiter, null, ApiException.unavailable("the instance is shutting down", 1));
        }
        return waiter.result;
    }

    @Override
    public void committed(Set<String> productIds) {
        if (byId.isEmpty()) {
            return;
        }
        for (String id : productIds) {
            if (byId.containsKey(id)) {
                onOwnThread(() -> read(id));
            }
        }
    }

    /** Runs {@code task} on the waiters' thread, unless it stopped (the instance is closing: waiters are failed). */
    private void onOwnThread(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException e) {
            // close() answers every waiter left
        }
    }

    @Override
    public void closed(int partition) {
        if (byId.isEmpty()) {
            return;
        }
        onOwnThread(() -> {
            for (String id : List.copyOf(byId.keySet())) {
                if (partitionOf.applyAsInt(id) == partition) {
                    read(id);
                }
            }
        });
    }

    /** Reads {@code id} once and answers every waiter of it that the lookup answers. */
    private void read(String id) {
        Set<Waiter> waiters = byId.get(id);
        if (waiters == null || waiters.isEmpty()) {
            return;
        }
        ProductLookup lookup;
        try {
            lookup = queries.get(id);
        } catch (RuntimeException e) {
            waiters.forEach(w -> finish(w, null, e));
            return;
        }
        for (Waiter w : waiters) {
            if (lookup instanceof ProductLookup.Failed || reached(lookup, w.minVersion)) {
                finish(w, lookup, null);
            }
        }
    }

    /** At its deadline a waiter is answered with a fresh read; the waiters due together are read in one batch. */
    private void expire(Waiter waiter) {
        due.add(waiter);
        if (drainScheduled.compareAndSet(false, true)) {
            thread.execute(this::drainDue);
        }
    }

    private void drainDue() {
        drainScheduled.set(false);
        List<Waiter> batch = new ArrayList<>();
        for (Waiter w = due.poll(); w != null; w = due.poll()) {
            if (!w.done.get()) {
                batch.add(w);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        List<String> ids = List.copyOf(new LinkedHashSet<>(batch.stream().map(w -> w.id).toList()));
        Map<String, ProductLookup> lookups = new ConcurrentHashMap<>();
        try {
            List<ProductLookup> read = queries.getAll(ids);
            for (int i = 0; i < ids.size(); i++) {
                lookups.put(ids.get(i), read.get(i));
            }
        } catch (RuntimeException e) {
            batch.forEach(w -> finish(w, null, e));
            return;
        }
        batch.forEach(w -> finish(w, lookups.get(w.id), null));
    }

    private void finish(Waiter w, ProductLookup lookup, Throwable failure) {
        if (!w.done.compareAndSet(false, true)) {
            return;
        }
        byId.computeIfPresent(w.id, (id, set) -> {
            set.remove(w);
            return set.isEmpty() ? null : set;
        });
        count.decrementAndGet();
        ScheduledFuture<?> timeout = w.timeout;
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (failure != null) {
            w.result.completeExceptionally(failure);
        } else {
            w.result.complete(lookup);
        }
    }

    public int waiting() {
        return count.get();
    }

    @Override
    public void close() {
        thread.shutdownNow();
        ApiException closing = ApiException.unavailable("the instance is shutting down", 1);
        for (Set<Waiter> waiters : byId.values()) {
            waiters.forEach(w -> finish(w, null, closing));
        }
    }
}
