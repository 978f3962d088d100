package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.topology.internals.CaughtUpCommits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A change is readable soon after it is published while the service keeps up, not one commit interval (or two, for
 * category pages) later: the stream threads commit early after fresh records.
 */
@Tag("integration")
@Timeout(180)
class CaughtUpCommitsIT {

    /**
     * A commit interval twice the await below: only early commits can make the change readable within it (a
     * transaction may stay open that long, or Streams refuses the interval). A record counts as fresh for 20 s
     * instead of 1, so that a slow first poll on a loaded machine cannot turn the early commits off.
     */
    private static final Map<String, String> MINUTE_COMMITS = Map.of("commit.interval.ms", "60000",
            "producer.transaction.timeout.ms", "90000", CaughtUpCommits.CAUGHT_UP_WITHIN_CONFIG, "20000");

    @Test
    void shouldServeAChangeInItsCategoryBeforeTheCommitIntervalWhenTheServiceKeepsUp() {
        try (InProcessService service = InProcessService.start("caught-up", 2, MINUTE_COMMITS);
             TestProducer producer = new TestProducer(service.inputTopic())) {
            HttpTestClient http = service.http();

            producer.sendSingleObject(upsert(product("cu-1", "acme", List.of("kettles"), 2_999, 4, 4.1f), 1));

            await().alias("cu-1 listed in category kettles (two exactly-once stages) long before a 60 s commit")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> listedIds(http, "kettles").contains("cu-1"));
            assertThat(http.get("/v1/products/cu-1").json().get("priceCents").asLong()).isEqualTo(2_999);
        }
    }

    private static List<String> listedIds(HttpTestClient http, String category) {
        HttpTestClient.Answer page = http.get("/v1/products?category=" + category);
        if (page.status() != 200) {
            return List.of();
        }
        JsonNode items = page.json().get("items");
        return StreamSupport.stream(items.spliterator(), false).map(p -> p.get("id").asText()).toList();
    }
}
