package io.catalogviews.cluster;

import io.catalogviews.it.ServiceCluster;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.it.TestProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scale out and in while a client reads: a third instance joins, then one leaves cleanly. No answer may be
 * wrong; every refusal must be a 503 with Retry-After. The counts are printed for docs/operations.md.
 */
@Tag("system")
@Timeout(400)
class ScaleOutUnderLoadIT {

    private static final int PARTITIONS = 6;
    private static final int PRODUCTS = Soak.size(300, 5_000);

    @Test
    void shouldNeverAnswerWrongWhenAnInstanceJoinsAndAnotherLeavesUnderLoad() throws Exception {
        try (ServiceCluster cluster = ServiceCluster.start("scale-it", 2, PARTITIONS, 1)) {
            ServiceProcess a = cluster.instance(0);
            ServiceProcess b = cluster.instance(1);
            Map<String, Long> versions = new HashMap<>();
            try (TestProducer producer = cluster.producer()) {
                for (int i = 0; i < PRODUCTS; i++) {
                    String id = cluster.applicationId() + "-p" + i;
                    long version = 1 + i % 3;
                    producer.sendSingleObject(upsert(product(id, "acme", List.of("tvs"), 100 + i, 1, null), version));
                    versions.put(id, version);
                }
            }
            await().alias("every product is readable").atMost(Duration.ofSeconds(Soak.size(120, 1_800)))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> versions.entrySet().stream().allMatch(e -> a.http()
                            .get("/v1/products/" + e.getKey() + "?minVersion=" + e.getValue()).status() == 200));

            long joinMs;
            long leaveMs;
            try (VerifiedReadLoad load = new VerifiedReadLoad(versions, List.of(a, b), 4)) {
                awaitReads(load, 500);
                long joinStart = System.currentTimeMillis();
                ServiceProcess c = cluster.addInstance();
                await().alias("the new instance owns partitions").atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> ServiceCluster.instancesOwningProducts(c) == 3);
                joinMs = System.currentTimeMillis() - joinStart;
                load.addTarget(c);
                awaitReads(load, load.total() + 500);

                long leaveStart = System.currentTimeMillis();
                load.removeTarget(a);
                a.close();
                await().alias("the remaining instances own every partition").atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> ServiceCluster.instancesOwningProducts(b) == 2);
                leaveMs = System.currentTimeMillis() - leaveStart;
                awaitReads(load, load.total() + 500);
                load.close();

                System.out.printf("scale-out under load: %d reads, %d ok (%d stale), %d refused with 503 over %d ms,"
                                + " %d wrong; join took %d ms, clean leave %d ms%n", load.total(), load.ok.get(),
                        load.stale.get(), load.refused.get(), load.refusalSpanMs(), load.wrong.get(), joinMs, leaveMs);
                assertThat(load.wrongAnswers).as("wrong answers").isEmpty();
                assertThat(load.wrong.get()).isZero();
                assertThat(load.ok.get()).isGreaterThan(1000);
            }
        }
    }

    private static void awaitReads(VerifiedReadLoad load, long atLeast) {
        await().alias("the readers made " + atLeast + " reads").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).until(() -> load.total() >= atLeast);
    }
}
