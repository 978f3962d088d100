package io.catalogviews.bench.freshness;

import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.results.ReadLoadFigures;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The bench's read mix as an open loop beside the freshness phase: a dispatcher makes one request due every
 * {@code 1/rate} seconds, taking the workloads of {@code mix} in turn (a class listed several times is asked as
 * often), and {@link #CONNECTIONS} keep-alive connections send them;
 * latency counts from the moment a request was due, so a service that falls behind shows as latency (and, once the
 * queue of due requests is full, as {@code dropped}) rather than as a slower client. Answers are judged by status
 * only: the data changes under them.
 */
final class ReadLoad {

    static final int CONNECTIONS = 32;

    private record Due(long at, Query query) {
    }

    private final String url;
    private final List<Query.Workload> mix;
    private final double rate;
    private final BlockingQueue<Due> queue;
    private final Latencies latencies = new Latencies();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong wrong = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private long startedAt;

    ReadLoad(String url, List<Query.Workload> mix, double rate) {
        this.url = url;
        this.mix = List.copyOf(mix);
        this.rate = rate;
        this.queue = new ArrayBlockingQueue<>((int) Math.max(1000, rate * 2));
    }

    void start(long seed) {
        running = true;
        startedAt = System.nanoTime();
        Thread dispatcher = new Thread(() -> dispatch(new SplittableRandom(seed)), "freshness-read-dispatcher");
        threads.add(dispatcher);
        for (int i = 0; i < CONNECTIONS; i++) {
            threads.add(new Thread(this::send, "freshness-read-" + i));
        }
        threads.forEach(t -> {
            t.setDaemon(true);
            t.start();
        });
    }

    private void dispatch(SplittableRandom random) {
        long interval = (long) (1e9 / rate);
        long next = System.nanoTime();
        long n = 0;
        while (running) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            Query q = mix.get((int) (n++ % mix.size())).pick(random);
            if (!queue.offer(new Due(next, q))) {
                dropped.incrementAndGet();
            }
            next += interval;
        }
    }

    private void send() {
        try (HttpConnection c = HttpConnection.to(url, 15_000)) {
            while (running || !queue.isEmpty()) {
                Due due = queue.poll(50, TimeUnit.MILLISECONDS);
                if (due == null) {
                    continue;
                }
                sent.incrementAndGet();
                try {
                    int status = c.exchange(due.query().head(), due.query().body()).status();
                    latencies.add(System.nanoTime() - due.at());
                    if (status == 200) {
                        ok.incrementAndGet();
                    } else if (status >= 500) {
                        errors.incrementAndGet();
                    } else {
                        wrong.incrementAndGet();
                    }
                } catch (IOException | RuntimeException e) {
                    c.close();
                    errors.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Each class with its share of a round ({@code get-by-id ×8}), in the order of its first appearance. */
    private List<String> shares() {
        java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        mix.forEach(w -> counts.merge(w.queryClass().key, 1, Integer::sum));
        return counts.entrySet().stream().map(e -> e.getValue() == 1 ? e.getKey() : e.getKey() + " ×" + e.getValue())
                .toList();
    }

    /** Requests sent so far. */
    long sent() {
        return sent.get();
    }

    /** Stops dispatching, lets the connections finish what is due, and returns the figures. */
    ReadLoadFigures stop() {
        running = false;
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long[] sorted = latencies.sorted();
        return new ReadLoadFigures(rate, (ok.get() + wrong.get()) / seconds, seconds, sent.get(), ok.get(),
                wrong.get(), errors.get(), dropped.get(), Latencies.percentileMs(sorted, 0.5),
                Latencies.percentileMs(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
                shares(), ReadLoadFigures.NOTE);
    }
}
