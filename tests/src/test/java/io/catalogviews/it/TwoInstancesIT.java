package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.views.query.KeyPartitioner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the executable jar, each its own JVM with its own HTTP port and state dir, sharing one
 * application id: every product is readable from both, forwarded to its owner when needed.
 */
@Tag("integration")
@Timeout(300)
class TwoInstancesIT {

    private static final int PARTITIONS = 6;
    private static final int PRODUCTS = 120;
    private static ServiceCluster cluster;
    private static ServiceProcess first;
    private static ServiceProcess second;
    private static final List<String> IDS = new ArrayList<>();

    @BeforeAll
    static void startTwoInstancesAndLoad() {
        cluster = ServiceCluster.start("two-it", 2, PARTITIONS, 0);
        first = cluster.instance(0);
        second = cluster.instance(1);
        try (TestProducer producer = cluster.producer()) {
            for (int i = 0; i < PRODUCTS; i++) {
                String id = cluster.applicationId() + "-p" + i;
                IDS.add(id);
                producer.sendSingleObject(upsert(product(id, i % 2 == 0 ? "acme" : "zeta", List.of("tvs"),
                        1_000 + i, i % 3, null), 1));
            }
        }
        await().alias("both instances own partitions and serve every product")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> IDS.stream().allMatch(id -> first.http().get("/v1/products/" + id).status() == 200));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldServeEveryProductFromBothInstancesWithTheOwnerInServedBy() {
        Map<Integer, String> ownerOfPartition = new HashMap<>();
        Set<String> owners = new HashSet<>();
        for (String id : IDS) {
            HttpTestClient.Answer fromFirst = first.http().get("/v1/products/" + id);
            HttpTestClient.Answer fromSecond = second.http().get("/v1/products/" + id);

            assertThat(fromFirst.status()).as("%s from first", id).isEqualTo(200);
            assertThat(fromSecond.status()).as("%s from second", id).isEqualTo(200);
            assertThat(fromFirst.body()).isEqualTo(fromSecond.body());
            assertThat(fromFirst.json().get("id").asText()).isEqualTo(id);
            String servedBy = fromFirst.header("X-Served-By");
            assertThat(fromSecond.header("X-Served-By")).isEqualTo(servedBy);
            assertThat(servedBy).isIn(first.hostPort(), second.hostPort());
            // One partition, one owner: every id of a partition names the same instance.
            String previous = ownerOfPartition.putIfAbsent(KeyPartitioner.partitionOf(id, PARTITIONS), servedBy);
            assertThat(previous == null ? servedBy : previous).as("owner of the partition of %s", id)
                    .isEqualTo(servedBy);
            owners.add(servedBy);
        }
        assertThat(owners).as("both instances own some partitions").hasSize(2);
    }

    @Test
    void shouldReturnAllProductsInRequestOrderWhenBatchSpansBothOwners() {
        List<String> ids = new ArrayList<>(IDS.subList(0, 40));
        ids.add(5, "missing-1");
        String body = ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));

        for (ServiceProcess instance : List.of(first, second)) {
            HttpTestClient.Answer answer = instance.http().postJson("/v1/products/batch", body);

            assertThat(answer.status()).isEqualTo(200);
            List<String> returned = new ArrayList<>();
            for (JsonNode p : answer.json().get("products")) {
                returned.add(p.get("id").asText());
            }
            assertThat(returned).containsExactlyElementsOf(IDS.subList(0, 40));
            assertThat(answer.json().get("missing")).extracting(JsonNode::asText).containsExactly("missing-1");
            assertThat(answer.header("X-Served-By").split(","))
                    .containsExactlyInAnyOrder(first.hostPort(), second.hostPort());
        }
    }
}
