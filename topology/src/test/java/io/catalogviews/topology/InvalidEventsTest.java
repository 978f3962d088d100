package io.catalogviews.topology;

import static io.catalogviews.topology.DeadLetterChecks.assertSingleDeadLetter;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.Events.withVersion;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.views.product.ProductRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Rule 5 of CONTRACT.md section 1: every rule of the Product table, PriceChanged and StockChanged. */
class InvalidEventsTest {

    private static final String ID = "p-1";
    private static final Instant LAST_MS_OF_9999 = Instant.parse("9999-12-31T23:59:59.999Z");

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    /** (event at version 2 for {@value #ID} breaking one rule, a word the dlq.detail must name). */
    static Stream<Arguments> eventsBreakingOneRule() {
        return Stream.of(
                invalid("sku empty", "sku", upsert(ID, 2, p -> p.setSku(""))),
                invalid("sku of 129 characters", "sku", upsert(ID, 2, p -> p.setSku("s".repeat(129)))),
                invalid("name empty", "name", upsert(ID, 2, p -> p.setName(""))),
                invalid("name of 513 characters", "name", upsert(ID, 2, p -> p.setName("n".repeat(513)))),
                invalid("brand empty", "brand", upsert(ID, 2, p -> p.setBrand(""))),
                invalid("brand of 129 characters", "brand", upsert(ID, 2, p -> p.setBrand("b".repeat(129)))),
                invalid("brand with a tab", "brand", upsert(ID, 2, p -> p.setBrand("ac\tme"))),
                invalid("brand with a line feed", "brand", upsert(ID, 2, p -> p.setBrand("acme\n"))),
                invalid("brand with NUL", "brand", upsert(ID, 2, p -> p.setBrand("\u0000acme"))),
                invalid("brand with DEL", "brand", upsert(ID, 2, p -> p.setBrand("acme\u007f"))),
                invalid("brand with a C1 control", "brand", upsert(ID, 2, p -> p.setBrand("ac\u0085me"))),
                invalid("categories empty", "categories", upsert(ID, 2, p -> p.setCategories(List.of()))),
                invalid("category with upper case", "categories",
                        upsert(ID, 2, p -> p.setCategories(List.of("phones", "Phones")))),
                invalid("category starting with a hyphen", "categories",
                        upsert(ID, 2, p -> p.setCategories(List.of("-phones")))),
                invalid("category empty", "categories", upsert(ID, 2, p -> p.setCategories(List.of("")))),
                invalid("category with an underscore", "categories",
                        upsert(ID, 2, p -> p.setCategories(List.of("smart_phones")))),
                invalid("category with a space", "categories",
                        upsert(ID, 2, p -> p.setCategories(List.of("smart phones")))),
                invalid("category of 65 characters", "categories",
                        upsert(ID, 2, p -> p.setCategories(List.of("c".repeat(65))))),
                invalid("33 distinct categories", "categories",
                        upsert(ID, 2, p -> p.setCategories(categories(33)))),
                invalid("negative price", "priceCents", upsert(ID, 2, p -> p.setPriceCents(-1L))),
                invalid("lower-case currency", "currency", upsert(ID, 2, p -> p.setCurrency("eur"))),
                invalid("two-letter currency", "currency", upsert(ID, 2, p -> p.setCurrency("EU"))),
                invalid("four-letter currency", "currency", upsert(ID, 2, p -> p.setCurrency("EURO"))),
                invalid("currency with a digit", "currency", upsert(ID, 2, p -> p.setCurrency("E1R"))),
                invalid("negative stock", "stock", upsert(ID, 2, p -> p.setStock(-1))),
                invalid("rating NaN", "rating", upsert(ID, 2, p -> p.setRating(Float.NaN))),
                invalid("rating +infinity", "rating", upsert(ID, 2, p -> p.setRating(Float.POSITIVE_INFINITY))),
                invalid("rating -infinity", "rating", upsert(ID, 2, p -> p.setRating(Float.NEGATIVE_INFINITY))),
                invalid("rating below 0", "rating", upsert(ID, 2, p -> p.setRating(-0.1f))),
                invalid("rating above 5", "rating", upsert(ID, 2, p -> p.setRating(Math.nextUp(5f)))),
                invalid("65 attributes", "attributes", upsert(ID, 2, p -> p.setAttributes(attributes(65)))),
                invalid("attribute key empty", "attributes",
                        upsert(ID, 2, p -> p.setAttributes(Map.of("", "value")))),
                invalid("attribute key of 65 characters", "attributes",
                        upsert(ID, 2, p -> p.setAttributes(Map.of("k".repeat(65), "value")))),
                invalid("attribute value of 1025 characters", "attributes",
                        upsert(ID, 2, p -> p.setAttributes(Map.of("color", "v".repeat(1025))))),
                invalid("updatedAt before 1970", "updatedAt",
                        upsert(ID, 2, p -> p.setUpdatedAt(Instant.EPOCH.minusMillis(1)))),
                invalid("updatedAt after 9999", "updatedAt",
                        upsert(ID, 2, p -> p.setUpdatedAt(LAST_MS_OF_9999.plusMillis(1)))),
                invalid("PriceChanged with a negative price", "priceCents", priceChanged(ID, 2, -1L, "EUR")),
                invalid("PriceChanged with a lower-case currency", "currency", priceChanged(ID, 2, 100L, "usd")),
                invalid("PriceChanged with an empty currency", "currency", priceChanged(ID, 2, 100L, "")),
                invalid("StockChanged with a negative stock", "stock", stockChanged(ID, 2, -1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventsBreakingOneRule")
    void shouldDeadLetterAsInvalidAndKeepTheHeldProductWhenAnEventBreaksARule(ProductEvent event, String field) {
        topology.send(upsert(ID, 1));
        ProductRow held = topology.row(ID);

        long offset = topology.send(event);

        String detail = assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(detail).containsIgnoringCase(field);
        assertThat(topology.row(ID)).isEqualTo(held);
        assertThat(topology.counters.deadLetteredFor(DeadLetterReason.INVALID)).isEqualTo(1L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventsBreakingOneRule")
    void shouldDeadLetterAsInvalidWhenAnEventBreakingARuleIsForAProductNeverHeld(ProductEvent event,
                                                                                String field) {
        long offset = topology.send(event);

        assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(topology.row(ID)).isNull();
    }

    static Stream<Arguments> idsBreakingTheGrammar() {
        return Stream.of(
                Arguments.of(Named.of("empty", "")),
                Arguments.of(Named.of("with a space", "p 1")),
                Arguments.of(Named.of("with a slash", "p/1")),
                Arguments.of(Named.of("with a non-ASCII letter", "pé")),
                Arguments.of(Named.of("of 129 characters", "p".repeat(129))));
    }

    @ParameterizedTest(name = "id {0}")
    @MethodSource("idsBreakingTheGrammar")
    void shouldDeadLetterAsInvalidWhenTheIdBreaksTheGrammarEverywhere(String id) {
        long offset = topology.send(upsert(id, 1));

        String detail = assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(detail).containsIgnoringCase("id");
        assertThat(topology.row(id)).isNull();
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE})
    void shouldDeadLetterAsInvalidWhenTheVersionIsNotPositiveForAProductNeverHeld(long version) {
        long offset = topology.send(withVersion(upsert(ID, 1), version));

        String detail = assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(detail).containsIgnoringCase("version");
        assertThat(topology.row(ID)).isNull();
    }

    @Test
    void shouldDeadLetterAsInvalidWhenADeleteHasANonPositiveVersionForAProductNeverHeld() {
        long offset = topology.send(Events.deleted(ID, 0));

        assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(topology.row(ID)).as("no deletion marker is remembered").isNull();
    }

    /** (event at version 1 for {@value #ID} with one value at the edge of its rule). */
    static Stream<Arguments> eventsAtTheEdgeOfARule() {
        return Stream.of(
                valid("sku of 1 character", upsert(ID, 1, p -> p.setSku("s"))),
                valid("sku of 128 characters", upsert(ID, 1, p -> p.setSku("s".repeat(128)))),
                valid("name of 512 characters", upsert(ID, 1, p -> p.setName("n".repeat(512)))),
                valid("name with control characters", upsert(ID, 1, p -> p.setName("Phone\n\t\"X\""))),
                valid("brand of 128 characters", upsert(ID, 1, p -> p.setBrand("b".repeat(128)))),
                valid("brand with non-ASCII letters and spaces", upsert(ID, 1, p -> p.setBrand("Mü & Co, 日本"))),
                valid("32 distinct categories", upsert(ID, 1, p -> p.setCategories(categories(32)))),
                valid("category of 64 characters", upsert(ID, 1, p -> p.setCategories(List.of("a" + "-".repeat(63))))),
                valid("category of one digit", upsert(ID, 1, p -> p.setCategories(List.of("7")))),
                valid("price 0", upsert(ID, 1, p -> p.setPriceCents(0L))),
                valid("price Long.MAX_VALUE", upsert(ID, 1, p -> p.setPriceCents(Long.MAX_VALUE))),
                valid("stock 0", upsert(ID, 1, p -> p.setStock(0))),
                valid("stock Integer.MAX_VALUE", upsert(ID, 1, p -> p.setStock(Integer.MAX_VALUE))),
                valid("rating 0", upsert(ID, 1, p -> p.setRating(0f))),
                valid("rating 5", upsert(ID, 1, p -> p.setRating(5f))),
                valid("no rating", upsert(ID, 1, p -> p.setRating(null))),
                valid("64 attributes", upsert(ID, 1, p -> p.setAttributes(attributes(64)))),
                valid("no attributes", upsert(ID, 1, p -> p.setAttributes(Map.of()))),
                valid("attribute key of 64 characters",
                        upsert(ID, 1, p -> p.setAttributes(Map.of("k".repeat(64), "v")))),
                valid("attribute value of 1024 characters",
                        upsert(ID, 1, p -> p.setAttributes(Map.of("k", "v".repeat(1024))))),
                valid("attribute value empty", upsert(ID, 1, p -> p.setAttributes(Map.of("k", "")))),
                valid("updatedAt 1970-01-01T00:00:00.000Z", upsert(ID, 1, p -> p.setUpdatedAt(Instant.EPOCH))),
                valid("updatedAt 9999-12-31T23:59:59.999Z", upsert(ID, 1, p -> p.setUpdatedAt(LAST_MS_OF_9999))),
                valid("version Long.MAX_VALUE", withVersion(upsert(ID, 1), Long.MAX_VALUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventsAtTheEdgeOfARule")
    void shouldApplyAnUpsertWhenAValueIsAtTheEdgeOfItsRule(ProductEvent event) {
        topology.send(event);

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.row(ID).version()).isEqualTo(event.getVersion());
    }

    @Test
    void shouldApplyAnIdWhenItUsesEveryAllowedCharacterAndIs128Long() {
        String allowed = "ABCXYZabcxyz0189._:~-";
        String id = (allowed.repeat(7)).substring(0, 128);

        topology.send(upsert(id, 1, p -> p.setSku("SKU-LONG")));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.json(id).get("id").textValue()).isEqualTo(id);
    }

    @Test
    void shouldApplyAPriceChangeWhenThePriceIsZero() {
        topology.send(upsert(ID, 1));

        topology.send(priceChanged(ID, 2, 0L, "JPY"));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.json(ID).get("priceCents").longValue()).isZero();
    }

    private static Arguments invalid(String rule, String field, ProductEvent event) {
        return Arguments.of(Named.of(rule, event), field);
    }

    private static Arguments valid(String edge, ProductEvent event) {
        return Arguments.of(Named.of(edge, event));
    }

    private static List<String> categories(int distinct) {
        List<String> categories = new ArrayList<>();
        for (int i = 0; i < distinct; i++) {
            categories.add("category-" + i);
        }
        return categories;
    }

    private static Map<String, String> attributes(int count) {
        Map<String, String> attributes = new HashMap<>();
        for (int i = 0; i < count; i++) {
            attributes.put("key-" + i, "value-" + i);
        }
        return attributes;
    }
}
