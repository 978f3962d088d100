package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.catalogviews.it.TestEvents.deleted;
import static io.catalogviews.it.TestEvents.price;
import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.stock;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whole-catalog pages are kept in memory between the commits that write where they were read: asked again, a page
 * comes from memory (the metric says so), and every change that moves it — a price into its range, a deletion, a
 * change of an item's row that leaves its index entries as they were — is served once committed, never the kept
 * page.
 */
@Tag("integration")
@Timeout(180)
class WholeCatalogPageCacheIT {

    private static final String CHEAPEST_3 = "/v1/products?sort=price&limit=3";
    private static final String BEST_RATED_2 = "/v1/products?sort=-rating&limit=2";
    private static final Map<String, String> FROM_MEMORY = Map.of("source", "memory");

    @Test
    void shouldServeEveryCommittedChangeWhenPagesAreKeptBetweenCommits() {
        try (InProcessService service = InProcessService.start("page-cache", 2);
             TestProducer producer = new TestProducer(service.inputTopic())) {
            HttpTestClient http = service.http();
            for (int i = 1; i <= 6; i++) {
                producer.sendSingleObject(upsert(product("pc-" + i, "acme", List.of("kettles"), i * 1_000L, 4,
                        1.0f + i * 0.5f), 1));
            }
            await().alias("the 3 cheapest of the 6 products listed").atMost(Duration.ofSeconds(60))
                    .until(() -> ids(http, CHEAPEST_3).equals(List.of("pc-1", "pc-2", "pc-3"))
                            && ids(http, "/v1/products?sort=price&limit=10").size() == 6);

            double before = served(http);
            assertThat(ids(http, CHEAPEST_3)).containsExactly("pc-1", "pc-2", "pc-3");
            assertThat(ids(http, CHEAPEST_3)).containsExactly("pc-1", "pc-2", "pc-3");
            assertThat(served(http)).as("pages served from memory").isGreaterThan(before);

            producer.sendSingleObject(price("pc-6", 2, 500));
            await().alias("pc-6, repriced to 5.00, listed first").atMost(Duration.ofSeconds(30))
                    .until(() -> ids(http, CHEAPEST_3).equals(List.of("pc-6", "pc-1", "pc-2")));

            producer.sendSingleObject(deleted("pc-1", 2));
            await().alias("pc-1, deleted, no longer listed").atMost(Duration.ofSeconds(30))
                    .until(() -> ids(http, CHEAPEST_3).equals(List.of("pc-6", "pc-2", "pc-3")));

            assertThat(ids(http, BEST_RATED_2)).containsExactly("pc-6", "pc-5");
            assertThat(ids(http, BEST_RATED_2)).containsExactly("pc-6", "pc-5");
            // Still in stock: the -rating entries stay as they are, only the row changes.
            producer.sendSingleObject(stock("pc-5", 2, 7));
            await().alias("pc-5's new stock in the -rating page").atMost(Duration.ofSeconds(30))
                    .until(() -> stockOf(http, BEST_RATED_2, "pc-5") == 7);
        }
    }

    private static double served(HttpTestClient http) {
        return PrometheusText.parse(http.get("/metrics").body()).value("catalog_page_answers_total", FROM_MEMORY);
    }

    private static List<String> ids(HttpTestClient http, String target) {
        List<String> out = new ArrayList<>();
        for (JsonNode item : items(http, target)) {
            out.add(item.get("id").asText());
        }
        return out;
    }

    private static long stockOf(HttpTestClient http, String target, String id) {
        for (JsonNode item : items(http, target)) {
            if (item.get("id").asText().equals(id)) {
                return item.get("stock").asLong();
            }
        }
        return -1;
    }

    private static JsonNode items(HttpTestClient http, String target) {
        HttpTestClient.Answer page = http.get(target);
        assertThat(page.status()).as("status of %s", target).isEqualTo(200);
        return page.json().get("items");
    }
}
