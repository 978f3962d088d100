package io.catalogviews.bench.observe;

import io.catalogviews.bench.results.ServiceObservation;
import io.javalin.Javalin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The observer against a real HTTP {@code /metrics} (a Javalin server whose GC counter grows at each scrape) and the
 * real {@code /proc} of this test's JVM, where a thread named like Jetty's burns CPU inside the window.
 */
class ServiceObserverTest {

    private Javalin metrics;
    private final AtomicInteger scrapes = new AtomicInteger();

    @BeforeEach
    void start() {
        metrics = Javalin.create(cfg -> {
            cfg.jetty.port = 0;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/metrics", ctx -> ctx.result("jvm_gc_pause_seconds_count{gc=\"G1 Young Generation\"} "
                    + 5 * scrapes.incrementAndGet() + "\njvm_gc_pause_seconds_sum{gc=\"G1 Young Generation\"} 0.5\n"));
        }).start();
    }

    @AfterEach
    void stop() {
        metrics.stop();
    }

    @Test
    void shouldGiveTheThreadGroupsCpuAndTheCollectionsWhenTheWindowCloses() throws Exception {
        ServiceObserver observer = new ServiceObserver("http://127.0.0.1:" + metrics.port(),
                ProcessHandle.current().pid(), "catalog-views-bench");

        CountDownLatch observed = new CountDownLatch(1);
        RunObserver.Window window = observer.begin();
        Thread busy = burnInAThreadNamed("qtp12345-1", Duration.ofMillis(300), observed);
        ServiceObservation o = window.end(1.0);
        observed.countDown();
        busy.join();

        assertThat(o.threadCpuCores()).containsKey("jetty");
        assertThat(o.threadCpuCores().get("jetty")).as("cores of the jetty-named thread over 1 s").isGreaterThan(0.1);
        assertThat(o.gc().pauses()).as("5 more pauses counted by the second scrape").isEqualTo(5);
        assertThat(o.blockCache().note()).contains("metrics.recording.level=DEBUG");
        assertThat(o.note()).isNull();
    }

    @Test
    void shouldSayWhyWhenMetricsCannotBeRead() {
        ServiceObserver observer = new ServiceObserver("http://127.0.0.1:1", -1, "app");

        ServiceObservation o = observer.begin().end(1.0);

        assertThat(o.gc()).isNull();
        assertThat(o.threadCpuCores()).as("no process to read").isNull();
        assertThat(o.note()).startsWith("GET /metrics failed");
    }

    /**
     * Starts a thread that is busy until it has used {@code cpu} of CPU time (measured, not slept), then stays
     * alive until {@code release} (a thread that ended is no longer in /proc); returns once it has burned.
     */
    private static Thread burnInAThreadNamed(String name, Duration cpu, CountDownLatch release) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        AtomicBoolean burned = new AtomicBoolean();
        Thread t = new Thread(() -> {
            long until = mx.getCurrentThreadCpuTime() + cpu.toNanos();
            long x = 0;
            while (mx.getCurrentThreadCpuTime() < until) {
                x += System.nanoTime() % 7;
            }
            burned.set(x >= 0);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.start();
        await("the busy thread used its CPU").atMost(Duration.ofSeconds(30)).untilTrue(burned);
        return t;
    }
}
