package io.catalogviews.cluster;

import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceCluster;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.it.TestProducer;
import io.catalogviews.model.CatalogCluster;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.model.HistoryGenerator;
import io.catalogviews.model.ModelProduct;
import io.catalogviews.model.ProductJsonCheck;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 an instance while events are being published, restart it, several times; once everything has caught
 * up, every product and every category count equals the reference model built from all events published:
 * nothing lost, nothing applied twice, stale versions still rejected.
 */
@Tag("system")
@Timeout(600)
class CrashRecoveryIT {

    private static final int PARTITIONS = 6;
    private static final int PRODUCTS = Soak.size(120, 5_000);
    private static final int EVENTS = Soak.size(1_500, 20_000);
    private static final int CRASHES = Soak.size(3, 12);

    @Test
    void shouldEqualTheModelWhenAnInstanceIsKilledRepeatedlyUnderWriteLoad() throws Exception {
        try (ServiceCluster cluster = ServiceCluster.start("crash-it", 2, PARTITIONS, 1)) {
            ServiceProcess a = cluster.instance(0);
            ServiceProcess b = cluster.instance(1);
            List<HistoryEvent> history = HistoryGenerator.generate(20261130L, PRODUCTS, EVENTS);
            CatalogModel model = CatalogModel.of(history);
            AtomicInteger published = new AtomicInteger();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try (TestProducer producer = cluster.producer()) {
                    for (HistoryEvent e : history) {
                        producer.send(e);
                        published.incrementAndGet();
                    }
                }
            });
            for (int crash = 1; crash <= CRASHES; crash++) {
                int target = crash * EVENTS / (CRASHES + 1);
                await().alias("the writer published " + target + " events")
                        .atMost(Duration.ofSeconds(Soak.size(120, 1_800)))
                        .pollInterval(Duration.ofMillis(50)).until(() -> published.get() >= target);
                ServiceProcess victim = crash % 2 == 1 ? b : a;
                victim.kill();
                victim.restart().awaitReady(ServiceCluster.READY_TIMEOUT);
                System.out.printf("crash %d: killed and restarted %s after %d published events%n", crash,
                        victim.hostPort(), target);
            }
            writer.get();

            awaitLatestStates(a, model);
            List<String> mismatches = new ArrayList<>();
            for (ServiceProcess instance : List.of(a, b)) {
                for (String id : model.rememberedIds()) {
                    HttpTestClient.Answer answer = instance.http().get("/v1/products/" + id);
                    Optional<ModelProduct> expected = model.product(id);
                    if (expected.isEmpty()) {
                        if (answer.status() != 404) {
                            mismatches.add(instance.hostPort() + " " + id + ": expected 404, got " + answer.status());
                        }
                    } else if (answer.status() != 200) {
                        mismatches.add(instance.hostPort() + " " + id + ": expected 200, got " + answer.status());
                    } else {
                        String difference = ProductJsonCheck.difference(expected.get(), answer.body());
                        if (difference != null) {
                            mismatches.add(instance.hostPort() + " " + id + ": " + difference);
                        }
                    }
                }
            }
            assertThat(mismatches).as("products differing from the model").isEmpty();
            await().alias("category counts equal the model").atMost(Duration.ofSeconds(Soak.size(120, 900)))
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .untilAsserted(() -> assertThat(categories(a))
                            .containsExactlyElementsOf(CatalogCluster.modelCategories(model)));
            System.out.printf("crash recovery: %d events, %d crashes, %d products compared on 2 instances, 0 "
                    + "differences%n", EVENTS, CRASHES, model.rememberedIds().size());
        }
    }

    /** Waits until every product shows its latest remembered version (404 for deleted ones). */
    private static void awaitLatestStates(ServiceProcess instance, CatalogModel model) {
        await().alias("every product reached its latest version")
                .atMost(Duration.ofSeconds(Soak.size(180, 1_800)))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> model.rememberedIds().stream().allMatch(id -> {
                    Long version = model.rememberedVersion(id);
                    HttpTestClient.Answer answer = instance.http().get("/v1/products/" + id + "?minVersion=" + version);
                    return model.product(id).isPresent() ? answer.status() == 200 : answer.status() == 404;
                }));
    }

    private static List<String> categories(ServiceProcess instance) {
        List<String> out = new ArrayList<>();
        for (var c : instance.http().get("/v1/categories").json().get("categories")) {
            out.add(c.get("category").asText() + "=" + c.get("count").asLong());
        }
        return out;
    }

}
