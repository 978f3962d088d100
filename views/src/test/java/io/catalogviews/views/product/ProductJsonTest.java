package io.catalogviews.views.product;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.catalogviews.events.Product;
import io.catalogviews.events.codec.ProductEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProductJsonTest {

    /** The example of CONTRACT.md section 2, verbatim. */
    private static final String CONTRACT_EXAMPLE = """
            {"id":"p-42","sku":"SKU-42","name":"Phone X","brand":"acme","categories":["phones","electronics"],
             "priceCents":49900,"currency":"EUR","stock":3,"inStock":true,"rating":4.5,
             "attributes":{"color":"black"},"updatedAt":"2026-11-29T10:00:00.000Z","version":7}
            """;

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private static final Instant UPDATED_AT = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void shouldRenderExactlyTheContractExampleWhenGivenItsProduct() {
        Product phone = product("p-42", "Phone X", 4.5f, Map.of("color", "black"), UPDATED_AT);

        JsonNode rendered = parse(ProductJson.render(phone, 7L));

        assertThat(rendered).isEqualTo(parse(CONTRACT_EXAMPLE.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldRenderEveryFieldWithItsContractTypeWhenRenderingAProduct() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("size", "XL");
        attributes.put("color", "black");
        Product product = ProductEvents.product("p-1", "SKU-1", "Shirt", "acme", List.of("shirts", "sale"),
                Long.MAX_VALUE, "USD", 12, 3.5f, attributes, Instant.parse("2026-01-02T03:04:05.006Z"));

        JsonNode json = parse(ProductJson.render(product, 9_007_199_254_740_993L));

        assertThat(fieldNames(json)).containsExactlyInAnyOrder("id", "sku", "name", "brand", "categories",
                "priceCents", "currency", "stock", "inStock", "rating", "attributes", "updatedAt", "version");
        assertThat(json.get("id").isTextual()).isTrue();
        assertThat(json.get("id").textValue()).isEqualTo("p-1");
        assertThat(json.get("sku").textValue()).isEqualTo("SKU-1");
        assertThat(json.get("name").textValue()).isEqualTo("Shirt");
        assertThat(json.get("brand").textValue()).isEqualTo("acme");
        assertThat(json.get("categories").isArray()).isTrue();
        assertThat(json.get("categories")).extracting(JsonNode::textValue).containsExactly("shirts", "sale");
        assertThat(json.get("priceCents").isIntegralNumber()).isTrue();
        assertThat(json.get("priceCents").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(json.get("currency").textValue()).isEqualTo("USD");
        assertThat(json.get("stock").isIntegralNumber()).isTrue();
        assertThat(json.get("stock").intValue()).isEqualTo(12);
        assertThat(json.get("inStock").isBoolean()).isTrue();
        assertThat(json.get("inStock").booleanValue()).isTrue();
        assertThat(json.get("rating").isNumber()).isTrue();
        assertThat(json.get("rating").decimalValue()).isEqualByComparingTo("3.5");
        assertThat(json.get("attributes").isObject()).isTrue();
        assertThat(json.get("attributes").get("size").textValue()).isEqualTo("XL");
        assertThat(json.get("attributes").get("color").textValue()).isEqualTo("black");
        assertThat(json.get("attributes").size()).isEqualTo(2);
        assertThat(json.get("updatedAt").textValue()).isEqualTo("2026-01-02T03:04:05.006Z");
        assertThat(json.get("version").isIntegralNumber()).isTrue();
        assertThat(json.get("version").longValue()).isEqualTo(9_007_199_254_740_993L);
    }

    @Test
    void shouldRenderRatingAsNullWhenTheProductHasNone() {
        JsonNode json = parse(ProductJson.render(product("p-1", "n", null, Map.of(), UPDATED_AT), 1L));

        assertThat(json.has("rating")).isTrue();
        assertThat(json.get("rating").isNull()).isTrue();
    }

    @ParameterizedTest(name = "{0}f renders as {1}")
    @CsvSource({"4.3, 4.3", "0.1, 0.1", "5, 5", "0, 0", "-0, 0", "2.05, 2.05", "1e-7, 0.0000001"})
    void shouldRenderTheShortestDecimalWhenTheProductHasARating(float rating, String expected) {
        byte[] bytes = ProductJson.render(product("p-1", "n", rating, Map.of(), UPDATED_AT), 1L);

        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"rating\":" + expected + ",");
        assertThat(parse(bytes).get("rating").decimalValue()).isEqualByComparingTo(new BigDecimal(expected));
    }

    @Test
    void shouldSayInStockFalseWhenStockIsZero() {
        Product product = Product.newBuilder(product("p-1", "n", null, Map.of(), UPDATED_AT)).setStock(0).build();

        JsonNode json = parse(ProductJson.render(product, 1L));

        assertThat(json.get("stock").intValue()).isZero();
        assertThat(json.get("inStock").booleanValue()).isFalse();
    }

    @Test
    void shouldKeepCategoriesInTheGivenOrderWhenRendering() {
        Product product = Product.newBuilder(product("p-1", "n", null, Map.of(), UPDATED_AT))
                .setCategories(List.of("zz", "aa", "mm")).build();

        assertThat(parse(ProductJson.render(product, 1L)).get("categories"))
                .extracting(JsonNode::textValue).containsExactly("zz", "aa", "mm");
    }

    @Test
    void shouldRenderAnEmptyObjectWhenTheProductHasNoAttributes() {
        JsonNode json = parse(ProductJson.render(product("p-1", "n", null, Map.of(), UPDATED_AT), 1L));

        assertThat(json.get("attributes").isObject()).isTrue();
        assertThat(json.get("attributes").size()).isZero();
    }

    @Test
    void shouldRenderTheSameBytesWhenAttributesComeInAnotherOrder() {
        Map<String, String> one = new LinkedHashMap<>();
        one.put("b", "2");
        one.put("a", "1");
        Map<String, String> other = new LinkedHashMap<>();
        other.put("a", "1");
        other.put("b", "2");

        assertThat(ProductJson.render(product("p-1", "n", null, one, UPDATED_AT), 1L))
                .isEqualTo(ProductJson.render(product("p-1", "n", null, other, UPDATED_AT), 1L));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "1970-01-01T00:00:00Z, 1970-01-01T00:00:00.000Z",
        "1970-01-01T00:00:00.001Z, 1970-01-01T00:00:00.001Z",
        "2026-11-29T10:00:00Z, 2026-11-29T10:00:00.000Z",
        "2024-02-29T23:59:59.5Z, 2024-02-29T23:59:59.500Z",
        "9999-12-31T23:59:59.999Z, 9999-12-31T23:59:59.999Z",
    })
    void shouldRenderUpdatedAtAsUtcMillisWhenRendering(String instant, String expected) {
        JsonNode json = parse(ProductJson.render(product("p-1", "n", null, Map.of(), Instant.parse(instant)), 1L));

        assertThat(json.get("updatedAt").textValue())
                .isEqualTo(expected)
                .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
        assertThat(ProductJson.formatTimestamp(Instant.parse(instant))).isEqualTo(expected);
    }

    @Test
    void shouldDropSubMillisecondDigitsWhenFormattingATimestamp() {
        assertThat(ProductJson.formatTimestamp(Instant.parse("2026-11-29T10:00:00.123456789Z")))
                .isEqualTo("2026-11-29T10:00:00.123Z");
    }

    @Test
    void shouldRenderValidJsonThatReadsBackTheSameStringsWhenTextNeedsEscaping() {
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        String name = "Phone \"X\" \\ back\\slash / \u007f " + controls + " end";
        String brand = "Ünïcödé ✓ 日本 😀 \u2028\u2029 \u00a0";
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("quote\"key", "value with \"quotes\"");
        attributes.put("back\\slash", "C:\\path\\");
        attributes.put("ctl\u0001\n\t", "line1\nline2\r\n\ttab\u0000nul\u001f");
        attributes.put("日本語", "😀 emoji and é");
        attributes.put("empty", "");
        Product product = ProductEvents.product("p-1", "SKU \"1\"\\", name, brand, List.of("phones"), 1L,
                "EUR", 1, null, attributes, UPDATED_AT);

        byte[] bytes = ProductJson.render(product, 1L);
        JsonNode json = parse(bytes);

        assertThat(json.get("name").textValue()).isEqualTo(name);
        assertThat(json.get("brand").textValue()).isEqualTo(brand);
        assertThat(json.get("sku").textValue()).isEqualTo("SKU \"1\"\\");
        Map<String, String> readBack = new LinkedHashMap<>();
        json.get("attributes").fields().forEachRemaining(e -> readBack.put(e.getKey(), e.getValue().textValue()));
        assertThat(readBack).isEqualTo(attributes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text.chars().filter(c -> c < 0x20)).as("raw control characters in the JSON text").isEmpty();
        assertThat(text).contains("日本語", "😀");
    }

    @Test
    void shouldRenderWellFormedUtf8WhenTextIsNotAscii() {
        String name = "€ 100 – naïve café 日本 😀";
        byte[] bytes = ProductJson.render(product("p-1", name, null, Map.of(), UPDATED_AT), 1L);

        assertThat(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)).isEqualTo(bytes);
        assertThat(parse(bytes).get("name").textValue()).isEqualTo(name);
    }

    private static Product product(String id, String name, Float rating, Map<String, String> attributes,
                                   Instant updatedAt) {
        return ProductEvents.product(id, "SKU-42", name, "acme", List.of("phones", "electronics"), 49_900L, "EUR",
                3, rating, attributes, updatedAt);
    }

    private static List<String> fieldNames(JsonNode json) {
        List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("not valid JSON: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }
}
