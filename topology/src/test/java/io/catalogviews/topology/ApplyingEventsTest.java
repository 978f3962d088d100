package io.catalogviews.topology;

import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.product;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.product.ProductState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rule 8 of CONTRACT.md section 1: what each applied event does to the product view. */
class ApplyingEventsTest {

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    @Test
    void shouldCreateTheProductWhenAnUpsertArrivesForANewId() {
        topology.send(upsert("p-1", 1));

        assertThat(topology.json("p-1")).isEqualTo(TopologyFixture.parse("""
                {"id":"p-1","sku":"SKU-p-1","name":"Phone p-1","brand":"acme","categories":["phones","electronics"],
                 "priceCents":49900,"currency":"EUR","stock":3,"inStock":true,"rating":4.5,
                 "attributes":{"color":"black"},"updatedAt":"2026-11-29T10:00:00.000Z","version":1}
                """.getBytes(StandardCharsets.UTF_8)));
        assertThat(topology.row("p-1").version()).isEqualTo(1L);
        assertThat(ProductState.decode(topology.row("p-1").state())).isEqualTo(product("p-1"));
        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.counters.applied()).isEqualTo(1L);
    }

    @Test
    void shouldReplaceTheWholeProductWhenAnotherUpsertArrives() {
        topology.send(upsert("p-1", 1, p -> p.setAttributes(Map.of("color", "black", "size", "XL"))));

        topology.send(upsert("p-1", 2, p -> p.setSku("SKU-NEW").setName("Phone Y").setBrand("globex")
                .setCategories(List.of("audio")).setPriceCents(100L).setCurrency("USD").setStock(0)
                .setRating(null).setAttributes(Map.of("weight", "1 kg"))
                .setUpdatedAt(Events.UPDATED_AT.plusSeconds(1))));

        assertThat(topology.json("p-1")).isEqualTo(TopologyFixture.parse("""
                {"id":"p-1","sku":"SKU-NEW","name":"Phone Y","brand":"globex","categories":["audio"],
                 "priceCents":100,"currency":"USD","stock":0,"inStock":false,"rating":null,
                 "attributes":{"weight":"1 kg"},"updatedAt":"2026-11-29T10:00:01.000Z","version":2}
                """.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldSetPriceCurrencyAndUpdatedAtWhenAPriceChangeArrives() {
        topology.send(upsert("p-1", 1));

        topology.send(priceChanged("p-1", 2, 1999L, "USD"));

        JsonNode json = topology.json("p-1");
        assertThat(json.get("priceCents").longValue()).isEqualTo(1999L);
        assertThat(json.get("currency").textValue()).isEqualTo("USD");
        assertThat(json.get("updatedAt").textValue()).isEqualTo("2026-11-29T10:02:00.000Z");
        assertThat(json.get("version").longValue()).isEqualTo(2L);
        assertThat(withoutFields(json, "priceCents", "currency", "updatedAt", "version"))
                .as("every other field as held")
                .isEqualTo(withoutFields(jsonOfUpsert("p-1"), "priceCents", "currency", "updatedAt", "version"));
    }

    @Test
    void shouldSetStockAndUpdatedAtWhenAStockChangeArrives() {
        topology.send(upsert("p-1", 1));

        topology.send(stockChanged("p-1", 2, 17));

        JsonNode json = topology.json("p-1");
        assertThat(json.get("stock").intValue()).isEqualTo(17);
        assertThat(json.get("inStock").booleanValue()).isTrue();
        assertThat(json.get("updatedAt").textValue()).isEqualTo("2026-11-29T10:02:00.000Z");
        assertThat(json.get("version").longValue()).isEqualTo(2L);
        assertThat(withoutFields(json, "stock", "updatedAt", "version"))
                .as("every other field as held")
                .isEqualTo(withoutFields(jsonOfUpsert("p-1"), "stock", "updatedAt", "version"));
    }

    @Test
    void shouldFlipInStockWhenStockReachesZeroAndComesBack() {
        topology.send(upsert("p-1", 1));

        topology.send(stockChanged("p-1", 2, 0));
        assertThat(topology.json("p-1").get("inStock").booleanValue()).isFalse();
        assertThat(topology.json("p-1").get("stock").intValue()).isZero();

        topology.send(stockChanged("p-1", 3, 1));
        assertThat(topology.json("p-1").get("inStock").booleanValue()).isTrue();
    }

    @Test
    void shouldKeepEachPatchWhenPatchesFollowEachOther() {
        topology.send(upsert("p-1", 1));

        topology.send(priceChanged("p-1", 2, 500L, "GBP"));
        topology.send(stockChanged("p-1", 3, 9));

        JsonNode json = topology.json("p-1");
        assertThat(json.get("priceCents").longValue()).isEqualTo(500L);
        assertThat(json.get("currency").textValue()).isEqualTo("GBP");
        assertThat(json.get("stock").intValue()).isEqualTo(9);
        assertThat(json.get("updatedAt").textValue()).isEqualTo("2026-11-29T10:03:00.000Z");
        assertThat(json.get("version").longValue()).isEqualTo(3L);
        Product held = ProductState.decode(topology.row("p-1").state());
        assertThat(held.getPriceCents()).isEqualTo(500L);
        assertThat(held.getStock()).isEqualTo(9);
    }

    @Test
    void shouldLeaveADeletionMarkerWithTheVersionWhenADeleteArrives() {
        topology.send(upsert("p-1", 1));

        topology.send(deleted("p-1", 2));

        ProductRow row = topology.row("p-1");
        assertThat(row.deleted()).isTrue();
        assertThat(row.version()).isEqualTo(2L);
        assertThat(row.deletedAtMs()).isEqualTo(TopologyFixture.WALL_CLOCK_START.toEpochMilli());
        assertThat(row.json()).isEmpty();
        assertThat(topology.deletionIndex()).hasSize(1);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldApplyAndRememberTheVersionWhenDeletingAProductNeverHeld() {
        topology.send(deleted("p-9", 5));

        assertThat(topology.row("p-9").deleted()).isTrue();
        assertThat(topology.row("p-9").version()).isEqualTo(5L);
        assertThat(topology.counters.applied()).isEqualTo(1L);
        assertThat(topology.deadLetters()).isEmpty();

        topology.send(upsert("p-9", 4));

        assertThat(topology.row("p-9").deleted()).as("an older upsert after the delete").isTrue();
        assertThat(topology.counters.stale()).isEqualTo(1L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldRecreateTheProductWhenAnUpsertWithAHigherVersionFollowsADelete() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 2));

        topology.send(upsert("p-1", 3, p -> p.setName("Phone again")));

        ProductRow row = topology.row("p-1");
        assertThat(row.deleted()).isFalse();
        assertThat(row.version()).isEqualTo(3L);
        assertThat(topology.json("p-1").get("name").textValue()).isEqualTo("Phone again");
    }

    @Test
    void shouldDeleteAndKeepTheRememberedVersionWhenATombstoneArrives() {
        topology.send(upsert("p-1", 7));

        topology.tombstone("p-1");

        ProductRow row = topology.row("p-1");
        assertThat(row.deleted()).isTrue();
        assertThat(row.version()).isEqualTo(7L);
        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.counters.applied()).isEqualTo(2L);
    }

    @Test
    void shouldTreatUpsertsUpToTheRememberedVersionAsStaleWhenATombstoneDeletedTheProduct() {
        topology.send(upsert("p-1", 7));
        topology.tombstone("p-1");

        topology.send(upsert("p-1", 7));
        topology.send(upsert("p-1", 6));

        assertThat(topology.row("p-1").deleted()).isTrue();
        assertThat(topology.counters.stale()).isEqualTo(2L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldRecreateTheProductWhenAnUpsertAboveTheTombstonedVersionArrives() {
        topology.send(upsert("p-1", 7));
        topology.tombstone("p-1");

        topology.send(upsert("p-1", 8));

        assertThat(topology.row("p-1").deleted()).isFalse();
        assertThat(topology.json("p-1").get("version").longValue()).isEqualTo(8L);
    }

    @Test
    void shouldKeepTheDeletedVersionWhenATombstoneFollowsADelete() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 5));

        topology.tombstone("p-1");
        topology.send(upsert("p-1", 5));

        assertThat(topology.row("p-1").deleted()).isTrue();
        assertThat(topology.row("p-1").version()).isEqualTo(5L);
        assertThat(topology.counters.stale()).isEqualTo(1L);
    }

    @Test
    void shouldApplyWithoutStoringAnythingWhenATombstoneArrivesForAProductNeverHeld() {
        topology.tombstone("p-never");

        assertThat(topology.row("p-never")).isNull();
        assertThat(topology.counters.applied()).isEqualTo(1L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldApplyJsonEncodedEventsExactlyLikeSingleObjectOnesWhenTheHistoryIsTheSame() {
        List<ProductEvent> asJson = history("p-json");
        List<ProductEvent> asSingleObject = history("p-avro");

        asJson.forEach(topology::sendAsJson);
        asSingleObject.forEach(topology::send);

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.counters.applied()).isEqualTo(6L);
        assertThat(topology.json("p-json").get("version").longValue()).isEqualTo(3L);
        assertThat(withoutFields(topology.json("p-json"), "id"))
                .isEqualTo(withoutFields(topology.json("p-avro"), "id"));

        topology.sendAsJson(deleted("p-json", 4));
        topology.send(deleted("p-avro", 4));

        assertThat(topology.row("p-json")).isEqualTo(topology.row("p-avro"))
                .satisfies(row -> assertThat(row.deleted()).isTrue());
    }

    @Test
    void shouldCollapseDuplicateCategoriesInFirstSeenOrderWhenAnUpsertRepeatsThem() {
        topology.send(upsert("p-1", 1,
                p -> p.setCategories(List.of("phones", "electronics", "phones", "audio", "electronics", "audio"))));

        assertThat(topology.json("p-1").get("categories")).extracting(JsonNode::textValue)
                .containsExactly("phones", "electronics", "audio");
        assertThat(ProductState.decode(topology.row("p-1").state()).getCategories())
                .containsExactly("phones", "electronics", "audio");
    }

    @Test
    void shouldAcceptMoreThan32CategoryEntriesWhenAtMost32AreDistinct() {
        List<String> categories = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            categories.add("c" + (i % 32));
        }

        topology.send(upsert("p-1", 1, p -> p.setCategories(categories)));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.json("p-1").get("categories")).hasSize(32);
    }

    @Test
    void shouldRenderRatingAsZeroWhenTheRatingIsNegativeZero() {
        topology.send(upsert("p-1", 1, p -> p.setRating(-0f)));

        String json = new String(topology.row("p-1").json(), StandardCharsets.UTF_8);
        assertThat(json).contains("\"rating\":0,").doesNotContain("-0");
        Float stored = ProductState.decode(topology.row("p-1").state()).getRating();
        assertThat(Float.floatToRawIntBits(stored)).as("stored rating bits").isZero();
    }

    @Test
    void shouldRenderTheShortestRatingWhenTheRatingIsNotExact() {
        topology.send(upsert("p-1", 1, p -> p.setRating(4.3f)));

        assertThat(new String(topology.row("p-1").json(), StandardCharsets.UTF_8)).contains("\"rating\":4.3,");
    }

    @Test
    void shouldKeepProductsApartWhenEventsForSeveralIdsInterleave() {
        topology.send(upsert("p-1", 1));
        topology.send(upsert("p-2", 1));
        topology.send(stockChanged("p-1", 2, 0));
        topology.send(deleted("p-2", 2));

        assertThat(topology.json("p-1").get("stock").intValue()).isZero();
        assertThat(topology.row("p-2").deleted()).isTrue();
    }

    /** Upsert, price change and stock change of one product, every field but the id the same for any id. */
    private static List<ProductEvent> history(String id) {
        return List.of(
                upsert(id, 1, p -> p.setSku("SKU").setName("Phone ✓ \"quoted\"")
                        .setAttributes(Map.of("color", "black", "ünï", "日本"))),
                priceChanged(id, 2, 1234L, "CHF"),
                stockChanged(id, 3, 0));
    }

    private JsonNode jsonOfUpsert(String id) {
        try (TopologyFixture other = TopologyFixture.start()) {
            other.send(upsert(id, 1));
            return other.json(id);
        }
    }

    private static JsonNode withoutFields(JsonNode json, String... fields) {
        ObjectNode copy = json.deepCopy();
        copy.remove(List.of(fields));
        return copy;
    }
}
