package io.catalogviews.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.catalogviews.events.codec.ProductEvents;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.it.TestKafka;
import io.catalogviews.it.TestProducer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 11, committed reads: "a version once answered (other than in an answer marked {@code X-Stale: true}) is
 * never followed by an older one, across crashes and rebalances" (CONTRACT.md section 2). Two instances with a
 * standby each; the versions of {@value #PRODUCTS} products rise at about {@value #CHANGES_PER_SECOND} changes/s;
 * readers poll both instances, some with {@code minVersion}; each instance is killed with SIGKILL in turn, and
 * restarted. A read that starts after another read of the same product was answered must not answer an older version
 * (unless marked stale), and a {@code minVersion} answer must never be taken back.
 */
@Tag("system")
@Timeout(420)
class CommittedReadsUnderCrashIT {

    private static final int PARTITIONS = 6;
    private static final int PRODUCTS = 200;
    private static final int CHANGES_PER_SECOND = 300;
    private static final int READERS = 8;
    private static final int KILLS = 4;

    /** The highest version of each product some answer already completed with (not stale). */
    private final Map<String, AtomicLong> answered = new ConcurrentHashMap<>();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong waits = new AtomicLong();
    private final List<String> regressions = new CopyOnWriteArrayList<>();

    @Test
    void shouldNeverAnswerAnOlderVersionWhenOwnersAreKilledUnderReadAndWriteLoad() throws Exception {
        String appId = "committed-" + UUID.randomUUID().toString().substring(0, 8);
        Path state = Path.of("target", "it-state", appId);
        String bootstrap = TestKafka.bootstrapServers();
        ServiceProcess a = ServiceProcess.start(bootstrap, appId, state.resolve("a"), PARTITIONS, 1);
        ServiceProcess b = ServiceProcess.start(bootstrap, appId, state.resolve("b"), PARTITIONS, 1);
        List<ServiceProcess> instances = List.of(a, b);
        AtomicLongArray published = new AtomicLongArray(PRODUCTS);
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
        try (TestProducer producer = new TestProducer(ServiceProcess.inputTopic(appId))) {
            a.awaitReady(Duration.ofSeconds(90));
            b.awaitReady(Duration.ofSeconds(90));
            Instant at = Instant.parse("2026-12-01T00:00:00Z");
            for (int i = 0; i < PRODUCTS; i++) {
                producer.sendSingleObject(ProductEvents.upsert(id(i), 1, at,
                        ProductEvents.product(id(i), "acme", "phones", 100, 1, at)));
                published.set(i, 1);
            }
            pool.submit(() -> write(producer, published, running));
            for (int r = 0; r < READERS; r++) {
                long seed = r;
                pool.submit(() -> read(instances, published, running, seed));
            }
            for (int kill = 0; kill < KILLS; kill++) {
                Thread.sleep(Duration.ofSeconds(8).toMillis()); // load runs between kills; no condition to await
                ServiceProcess victim = instances.get(kill % 2);
                victim.kill();
                System.out.printf("committed reads: killed %s (kill %d) after %d reads%n", victim.hostPort(),
                        kill + 1, reads.get());
                victim.restart().awaitReady(Duration.ofSeconds(120));
            }
            Thread.sleep(Duration.ofSeconds(8).toMillis());
            running.set(false);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as("readers and writer stopped").isTrue();

            System.out.printf("committed reads under %d kills: %d reads, %d stale (X-Stale), %d refused, %d minVersion "
                            + "answers, %d regressions%n", KILLS, reads.get(), stale.get(), refused.get(), waits.get(),
                    regressions.size());
            assertThat(reads.get()).as("reads made").isGreaterThan(2_000);
            assertThat(waits.get()).as("minVersion answers").isPositive();
            assertThat(regressions).as("answers older than an answer given before them").isEmpty();
        } finally {
            running.set(false);
            pool.shutdownNow();
            a.close();
            b.close();
        }
    }

    private static String id(int i) {
        return "c-" + i;
    }

    /** Price changes with rising versions, round robin, at about the target rate. */
    private static void write(TestProducer producer, AtomicLongArray published, AtomicBoolean running) {
        long start = System.nanoTime();
        long sent = 0;
        Instant at = Instant.parse("2026-12-01T00:00:00Z");
        while (running.get()) {
            int i = (int) (sent % PRODUCTS);
            long version = published.get(i) + 1;
            try {
                producer.sendSingleObject(ProductEvents.priceChanged(id(i), version, at.plusSeconds(version),
                        100 + version, "EUR"));
            } catch (RuntimeException e) {
                continue; // the broker is fine; a send that failed is retried with the same version
            }
            published.set(i, version);
            sent++;
            long due = start + sent * 1_000_000_000L / CHANGES_PER_SECOND;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void read(List<ServiceProcess> instances, AtomicLongArray published, AtomicBoolean running, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        while (running.get()) {
            int i = random.nextInt(PRODUCTS);
            String id = id(i);
            HttpTestClient http = instances.get(random.nextInt(instances.size())).http();
            boolean wait = random.nextInt(5) == 0;
            long minVersion = published.get(i);
            AtomicLong max = answered.computeIfAbsent(id, k -> new AtomicLong());
            long floor = max.get(); // answered before this read started
            HttpTestClient.Answer answer;
            try {
                answer = http.get("/v1/products/" + id + (wait ? "?minVersion=" + minVersion + "&waitMs=3000" : ""));
            } catch (RuntimeException e) {
                refused.incrementAndGet(); // the instance is down: connection refused
                continue;
            }
            reads.incrementAndGet();
            if (answer.status() != 200) {
                refused.incrementAndGet();
                continue;
            }
            if ("true".equals(answer.header("X-Stale"))) {
                stale.incrementAndGet();
                continue;
            }
            long version = answer.json().get("version").asLong();
            if (version < floor) {
                regressions.add(id + ": answered v" + version + " after v" + floor + " had been answered");
            }
            if (wait) {
                waits.incrementAndGet();
                if (version < minVersion) {
                    regressions.add(id + ": minVersion=" + minVersion + " answered v" + version);
                }
            }
            max.accumulateAndGet(version, Math::max);
        }
    }
}
