package io.catalogviews.cluster;

import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A steady stream of product reads against whichever instances a load balancer would send them to, each answer
 * checked against what was published: a 200 must carry the expected id and version; anything else must be a 503
 * with {@code Retry-After}. Counts what it saw and when refusals happened.
 */
final class VerifiedReadLoad implements AutoCloseable {

    private final Map<String, Long> expectedVersions;
    private final List<String> ids;
    private final CopyOnWriteArrayList<ServiceProcess> targets = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    final AtomicLong ok = new AtomicLong();
    final AtomicLong stale = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong wrong = new AtomicLong();
    final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Long> refusalTimes = new ConcurrentLinkedQueue<>();

    VerifiedReadLoad(Map<String, Long> expectedVersions, List<ServiceProcess> initialTargets, int threadCount) {
        this.expectedVersions = Map.copyOf(expectedVersions);
        this.ids = new ArrayList<>(expectedVersions.keySet());
        targets.addAll(initialTargets);
        for (int t = 0; t < threadCount; t++) {
            SplittableRandom random = new SplittableRandom(t);
            Thread thread = new Thread(() -> run(random), "verified-reads-" + t);
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
        return ok.get() + refused.get() + wrong.get();
    }

    private void run(SplittableRandom random) {
        while (running.get()) {
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
                record("connection failure to " + target.hostPort() + ": " + e.getMessage());
                continue;
            }
            classify(id, target, answer);
        }
    }

    private void classify(String id, ServiceProcess target, HttpTestClient.Answer answer) {
        if (answer.status() == 200) {
            long version = answer.json().get("version").asLong();
            if (answer.json().get("id").asText().equals(id) && version == expectedVersions.get(id)) {
                ok.incrementAndGet();
                if ("true".equals(answer.header("X-Stale"))) {
                    stale.incrementAndGet();
                }
            } else {
                record(target.hostPort() + " answered " + id + " with " + answer.body());
            }
        } else if (answer.status() == 503 && answer.header("Retry-After") != null
                && "unavailable".equals(answer.json().at("/error/code").asText())) {
            refused.incrementAndGet();
            refusalTimes.add(System.currentTimeMillis());
        } else {
            record(target.hostPort() + " answered " + id + " with " + answer.status() + " " + answer.body());
        }
    }

    private void record(String what) {
        wrong.incrementAndGet();
        if (wrongAnswers.size() < 20) {
            wrongAnswers.add(what);
        }
    }

    /** How long refusals lasted: from the first to the last refusal, in ms (0 when none). */
    long refusalSpanMs() {
        List<Long> times = new ArrayList<>(refusalTimes);
        return times.isEmpty() ? 0 : times.stream().mapToLong(Long::longValue).max().getAsLong()
                - times.stream().mapToLong(Long::longValue).min().getAsLong();
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
