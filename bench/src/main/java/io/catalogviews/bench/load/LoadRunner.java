package io.catalogviews.bench.load;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.observe.RunObserver;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.results.ServiceObservation;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * Closed-loop load: {@code concurrency} threads, each with its own connection, send the next query as soon as the
 * previous answer is in and checked, for a warm-up and then a measured window. Latency is from writing the
 * request to having read the whole answer (the check is not in it). Only queries started inside the measured
 * window count. The target's observer watches the window (the service's threads, GC and block cache).
 */
public final class LoadRunner {

    private LoadRunner() {
    }

    public static LoadResult run(Target target, Query.Workload workload, CatalogModel model, int concurrency,
                                 Duration warmup, Duration measure, long seed) {
        Checks checks = new Checks(model, workload.slots());
        long start = System.nanoTime();
        long measureStart = start + warmup.toNanos();
        long end = measureStart + measure.toNanos();
        Worker[] workers = new Worker[concurrency];
        CountDownLatch done = new CountDownLatch(concurrency);
        CountDownLatch sampled = new CountDownLatch(1);
        CpuClock serviceCpu = new CpuClock(target.pids());
        for (int t = 0; t < concurrency; t++) {
            workers[t] = new Worker(target, checks, workload, new SplittableRandom(seed * 1_000_003L + t), measureStart,
                    end, done, sampled);
            Thread thread = new Thread(workers[t], "load-" + target.name() + "-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        long[] cpuStart = new long[2];
        long machineStart = 0;
        RunObserver.Window window;
        try {
            long sleep = (measureStart - System.nanoTime()) / 1_000_000;
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            window = target.observer().begin();
            cpuStart[0] = serviceCpu.nanos();
            cpuStart[1] = harnessCpuNanos();
            machineStart = CpuClock.machineBusyNanos();
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("load interrupted", e);
        }
        // Sampled before the clients close: PostgreSQL's per-connection processes take their CPU time with them.
        double seconds = measure.toNanos() / 1e9;
        double serverCpu = Math.max(0, serviceCpu.nanos() - cpuStart[0]) / 1e9 / seconds;
        double clientCpu = (harnessCpuNanos() - cpuStart[1]) / 1e9 / seconds;
        double machineCpu = (CpuClock.machineBusyNanos() - machineStart) / 1e9 / seconds;
        double otherCpu = Math.max(0, machineCpu - serverCpu - clientCpu);
        sampled.countDown();
        ServiceObservation observed = window.end(seconds);

        long ok = 0;
        long wrong = 0;
        long errors = 0;
        long bytes = 0;
        long parsed = 0;
        int total = 0;
        List<String> samples = new ArrayList<>();
        for (Worker w : workers) {
            ok += w.ok;
            wrong += w.wrong;
            errors += w.errors;
            bytes += w.bytes;
            parsed += w.parsed;
            total += w.count;
            for (String s : w.samples) {
                if (samples.size() < 5) {
                    samples.add(s);
                }
            }
        }
        long[] all = new long[total];
        int at = 0;
        for (Worker w : workers) {
            System.arraycopy(w.latencies, 0, all, at, w.count);
            at += w.count;
        }
        Arrays.sort(all);
        long answered = ok + wrong;
        long requests = answered + errors;
        double clientMicrosPerRequest = requests == 0 ? 0 : clientCpu * seconds * 1e6 / requests;
        return new LoadResult(target.name(), workload.queryClass().key, concurrency, seconds, ok, wrong, errors,
                ok / seconds, percentileMs(all, 0.50), percentileMs(all, 0.95), percentileMs(all, 0.99),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6, answered == 0 ? 0 : (double) bytes / answered,
                serverCpu, clientCpu, otherCpu, samples, 1, parsed, clientMicrosPerRequest, observed);
    }

    static double percentileMs(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    /** CPU time of this JVM (the load client, the checks and anything else in the harness). */
    static long harnessCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return 0;
    }

    private static final class Worker implements Runnable {
        private final Target target;
        private final Checks checks;
        private final Query.Workload workload;
        private final SplittableRandom random;
        private final long measureStart;
        private final long end;
        private final CountDownLatch done;
        private final CountDownLatch sampled;
        long[] latencies = new long[1 << 14];
        int count;
        long ok;
        long wrong;
        long errors;
        long bytes;
        long parsed;
        final List<String> samples = new ArrayList<>();

        Worker(Target target, Checks checks, Query.Workload workload, SplittableRandom random, long measureStart,
               long end, CountDownLatch done, CountDownLatch sampled) {
            this.target = target;
            this.checks = checks;
            this.workload = workload;
            this.random = random;
            this.measureStart = measureStart;
            this.end = end;
            this.done = done;
            this.sampled = sampled;
        }

        @Override
        public void run() {
            boolean counted = false;
            try (Target.Client client = target.open(checks)) {
                long now = System.nanoTime();
                while (now < end) {
                    Query q = workload.pick(random);
                    long t0 = System.nanoTime();
                    Target.Outcome o = client.call(q);
                    long t1 = System.nanoTime();
                    if (t0 >= measureStart) {
                        record(t1 - t0, o);
                    }
                    if (o.kind() == Target.Kind.ERROR) {
                        sleepQuietly(); // a refused connection must not turn into a busy loop
                    }
                    now = System.nanoTime();
                }
                done.countDown();
                counted = true;
                sampled.await(5, java.util.concurrent.TimeUnit.MINUTES);
            } catch (Exception e) {
                errors++;
                if (samples.size() < 5) {
                    samples.add("ERROR cannot open a client: " + e);
                }
            } finally {
                if (!counted) {
                    done.countDown();
                }
            }
        }

        private void record(long nanos, Target.Outcome o) {
            switch (o.kind()) {
                case OK -> ok++;
                case WRONG -> wrong++;
                case ERROR -> errors++;
            }
            if (o.parsed()) {
                parsed++;
            }
            if (o.kind() != Target.Kind.OK && samples.size() < 5) {
                samples.add(o.kind() + " " + o.detail());
            }
            if (o.kind() == Target.Kind.ERROR) {
                return;
            }
            bytes += o.bytes();
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = nanos;
        }

        private static void sleepQuietly() {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
