package io.catalogviews.cluster;

import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.views.query.KeyPartitioner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady, paced stream of product reads against whichever instances a load balancer would send them to, each
 * answer checked against what was published: a 200 must carry the expected id and version; anything else must be
 * a 503 with {@code Retry-After}. Every read is recorded (when, which partition, how it ended), so that a window of
 * time can be summed up: how many reads were refused, and for how long the reads of one partition were refused in
 * a row.
 */
final class VerifiedReadLoad implements AutoCloseable {

    enum Outcome { OK, STALE, REFUSED, WRONG }

    /** One read: when it ended, the partition of its id, how it ended. */
    record Read(long atMs, int partition, Outcome outcome) {
    }

    /**
     * What a window of time looked like.
     *
     * @param longestRefusalMs the longest time the reads of one partition were refused in a row: from the first
     *                         refused read to the next answered one (or the window's end)
     */
    record Window(long reads, long ok, long stale, long refused, long wrong, long longestRefusalMs, long spanMs) {

        double refusedShare() {
            return reads == 0 ? 0 : (double) refused / reads;
        }

        double readsPerSecond() {
            return spanMs == 0 ? 0 : reads * 1000.0 / spanMs;
        }

        @Override
        public String toString() {
            return String.format("%d reads in %.1f s (%.0f/s), %d ok (%d stale), %d refused (%.2f %%), longest refusal "
                            + "%d ms, %d wrong", reads, spanMs / 1000.0, readsPerSecond(), ok, stale, refused,
                    refusedShare() * 100, longestRefusalMs, wrong);
        }
    }

    private final Map<String, Long> expectedVersions;
    private final List<String> ids;
    private final int partitions;
    private final CopyOnWriteArrayList<ServiceProcess> targets = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
    final AtomicLong wrong = new AtomicLong();
    final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
    /** Refusal messages and how often each came: they say which path refused. */
    final Map<String, AtomicLong> refusals = new ConcurrentHashMap<>();
    /** The first refusals: when, asked of which instance, the partition, the message. */
    final ConcurrentLinkedQueue<String> firstRefusals = new ConcurrentLinkedQueue<>();
    private final AtomicLong refusalSamples = new AtomicLong();

    /**
     * @param perSecond reads per second in all, spread evenly over {@code threadCount} threads; a thread whose reads
     *                  take longer than its share of the interval falls behind rather than catching up in a burst
     */
    VerifiedReadLoad(Map<String, Long> expectedVersions, int partitions, List<ServiceProcess> initialTargets,
                     int threadCount, int perSecond) {
        this.expectedVersions = Map.copyOf(expectedVersions);
        this.ids = new ArrayList<>(expectedVersions.keySet());
        this.partitions = partitions;
        targets.addAll(initialTargets);
        long intervalNanos = TimeUnit.SECONDS.toNanos(1) * threadCount / perSecond;
        for (int t = 0; t < threadCount; t++) {
            SplittableRandom random = new SplittableRandom(t);
            Thread thread = new Thread(() -> run(random, intervalNanos), "verified-reads-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    void addTarget(ServiceProcess instance) {
        targets.add(instance);
    }

    /** Takes an instance out of rotation, as a load balancer does once its readiness turns off. */
    void removeTarget(ServiceProcess instance) {
        targets.remove(instance);
    }

    long total() {
        return reads.size();
    }

    private void run(SplittableRandom random, long intervalNanos) {
        long next = System.nanoTime();
        while (running.get()) {
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (-wait > intervalNanos * 10) {
                next = System.nanoTime(); // far behind: do not burst to catch up
            }
            List<ServiceProcess> current = targets;
            if (current.isEmpty()) {
                continue;
            }
            ServiceProcess target = current.get(random.nextInt(current.size()));
            String id = ids.get(random.nextInt(ids.size()));
            HttpTestClient.Answer answer;
            try {
                answer = target.http().get("/v1/products/" + id);
            } catch (RuntimeException e) {
                if (!targets.contains(target)) {
                    continue; // it left the rotation while the request was in flight
                }
                record(id, Outcome.WRONG, "connection failure to " + target.hostPort() + ": " + e.getMessage());
                continue;
            }
            classify(id, target, answer);
        }
    }

    private void classify(String id, ServiceProcess target, HttpTestClient.Answer answer) {
        if (answer.status() == 200) {
            long version = answer.json().get("version").asLong();
            if (answer.json().get("id").asText().equals(id) && version == expectedVersions.get(id)) {
                record(id, "true".equals(answer.header("X-Stale")) ? Outcome.STALE : Outcome.OK, null);
            } else {
                record(id, Outcome.WRONG, target.hostPort() + " answered " + id + " with " + answer.body());
            }
        } else if (answer.status() == 503 && answer.header("Retry-After") != null
                && "unavailable".equals(answer.json().at("/error/code").asText())) {
            String message = answer.json().at("/error/message").asText();
            refusals.computeIfAbsent(message, m -> new AtomicLong()).incrementAndGet();
            if (refusalSamples.incrementAndGet() <= 40) {
                firstRefusals.add(java.time.LocalTime.now() + " " + target.hostPort() + " p"
                        + KeyPartitioner.partitionOf(id, partitions) + ": " + message);
            }
            record(id, Outcome.REFUSED, null);
        } else {
            record(id, Outcome.WRONG, target.hostPort() + " answered " + id + " with " + answer.status() + " "
                    + answer.body());
        }
    }

    private void record(String id, Outcome outcome, String wrongAnswer) {
        reads.add(new Read(System.currentTimeMillis(), KeyPartitioner.partitionOf(id, partitions), outcome));
        if (outcome == Outcome.WRONG) {
            wrong.incrementAndGet();
            if (wrongAnswers.size() < 20) {
                wrongAnswers.add(wrongAnswer);
            }
        }
    }

    /** The reads that ended in {@code [fromMs, toMs)}. */
    Window window(long fromMs, long toMs) {
        List<Read> in = reads.stream().filter(r -> r.atMs() >= fromMs && r.atMs() < toMs)
                .sorted(Comparator.comparingLong(Read::atMs)).toList();
        long[] counts = new long[Outcome.values().length];
        Map<Integer, Long> refusedSince = new TreeMap<>();
        long longest = 0;
        for (Read r : in) {
            counts[r.outcome().ordinal()]++;
            if (r.outcome() == Outcome.REFUSED) {
                refusedSince.putIfAbsent(r.partition(), r.atMs());
            } else if (r.outcome() != Outcome.WRONG) {
                Long since = refusedSince.remove(r.partition());
                if (since != null) {
                    longest = Math.max(longest, r.atMs() - since);
                }
            }
        }
        for (long since : refusedSince.values()) {
            longest = Math.max(longest, toMs - since);
        }
        long ok = counts[Outcome.OK.ordinal()] + counts[Outcome.STALE.ordinal()];
        return new Window(in.size(), ok, counts[Outcome.STALE.ordinal()], counts[Outcome.REFUSED.ordinal()],
                counts[Outcome.WRONG.ordinal()], longest, toMs - fromMs);
    }

    @Override
    public void close() {
        running.set(false);
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
