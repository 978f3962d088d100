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
 * Whole-catalog and category pages are kept in memory between the commits that write where they were read: asked
 * again, a page comes from memory (the metric says so), and every change that moves it — a price into its range, a
 * deletion, a change of an item's row that leaves its index entries as they were — is served once committed, never
 * the kept page.
 */
@Tag("integration")
@Timeout(180)
class KeptPagesIT {

    /** The two scopes of a page, each with its query prefix and its label in {@code catalog_page_answers_total}. */
    private static final Map<String, String> SCOPES = Map.of("catalog", "/v1/products?",
            "category", "/v1/products?category=kettles&");

    @Test
    void shouldServeEveryCommittedChangeWhenPagesAreKeptBetweenCommits() {
        try (InProcessService service = InProcessService.start("kept-pages", 2);
             TestProducer producer = new TestProducer(service.inputTopic())) {
            HttpTestClient http = service.http();
            for (int i = 1; i <= 6; i++) {
                producer.sendSingleObject(upsert(product("pc-" + i, "acme", List.of("kettles"), i * 1_000L, 4,
                        1.0f + i * 0.5f), 1));
            }
            await().alias("the 6 products listed in the whole catalog and in kettles").atMost(Duration.ofSeconds(60))
                    .until(() -> SCOPES.values().stream().allMatch(base ->
                            ids(http, base + "sort=price&limit=10").size() == 6));

            for (Map.Entry<String, String> scope : SCOPES.entrySet()) {
                double before = served(http, scope.getKey());
                String cheapest = scope.getValue() + "sort=price&limit=3";
                assertThat(ids(http, cheapest)).containsExactly("pc-1", "pc-2", "pc-3");
                assertThat(ids(http, cheapest)).containsExactly("pc-1", "pc-2", "pc-3");
                String bestRated = scope.getValue() + "sort=-rating&limit=2";
                assertThat(ids(http, bestRated)).containsExactly("pc-6", "pc-5");
                assertThat(ids(http, bestRated)).containsExactly("pc-6", "pc-5");
                assertThat(served(http, scope.getKey())).as("%s pages served from memory", scope.getKey())
                        .isGreaterThanOrEqualTo(before + 2);
            }

            producer.sendSingleObject(price("pc-6", 2, 500));
            producer.sendSingleObject(deleted("pc-1", 2));
            // Still in stock: the -rating entries stay as they are, only the rows change.
            producer.sendSingleObject(stock("pc-5", 2, 7));
            for (String base : SCOPES.values()) {
                await().alias("pc-6 repriced to 5.00 and listed first, pc-1 deleted, in " + base)
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> ids(http, base + "sort=price&limit=3").equals(List.of("pc-6", "pc-2", "pc-3")));
                await().alias("pc-5's new stock in the -rating page of " + base).atMost(Duration.ofSeconds(30))
                        .until(() -> stockOf(http, base + "sort=-rating&limit=2", "pc-5") == 7);
            }
        }
    }

    private static double served(HttpTestClient http, String scope) {
        return PrometheusText.parse(http.get("/metrics").body()).value("catalog_page_answers_total",
                Map.of("scope", scope, "source", "memory"));
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
