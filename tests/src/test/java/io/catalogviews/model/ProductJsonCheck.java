package io.catalogviews.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares a served product JSON with the model's product, field by field, after parsing both with Jackson (field
 * order is not significant): exactly the contract's fields, {@code rating} as the same 32-bit float (never −0) and
 * written as the shortest decimal that reads back, {@code updatedAt} as {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC.
 */
public final class ProductJsonCheck {

    static final Set<String> FIELDS = Set.of("id", "sku", "name", "brand", "categories", "priceCents", "currency",
            "stock", "inStock", "rating", "attributes", "updatedAt", "version");

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DateTimeFormatter UTC_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private ProductJsonCheck() {
    }

    /** Null when {@code json} is the contract's rendering of {@code expected}, else what differs. */
    public static String difference(ModelProduct expected, byte[] json) {
        return difference(expected, new String(json, StandardCharsets.UTF_8));
    }

    public static String difference(ModelProduct expected, String json) {
        JsonNode actual;
        try {
            actual = MAPPER.readTree(json);
        } catch (IOException e) {
            return "not JSON: " + json;
        }
        if (!(actual instanceof ObjectNode actualObject)) {
            return "not a JSON object: " + json;
        }
        List<String> problems = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        actualObject.fieldNames().forEachRemaining(names::add);
        if (!names.equals(new TreeSet<>(FIELDS))) {
            problems.add("fields " + names + " are not the contract's " + new TreeSet<>(FIELDS));
        }
        ObjectNode wanted;
        try {
            // Through text, so that numbers get the node types the parser gives (int or long by magnitude).
            wanted = (ObjectNode) MAPPER.readTree(MAPPER.writeValueAsString(expectedFields(expected)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ObjectNode got = actualObject.deepCopy();
        // Ratings compare as 32-bit floats: the text "4.3" is the float 4.3f.
        JsonNode rating = got.get("rating");
        if (rating != null && rating.isNumber()) {
            got.set("rating", FloatNode.valueOf(rating.floatValue()));
        }
        wanted.set("rating", expected.rating() == null ? NullNode.getInstance() : FloatNode.valueOf(expected.rating()));
        for (String field : FIELDS) {
            JsonNode w = wanted.get(field);
            JsonNode g = got.get(field);
            if (g == null || !w.equals(g)) {
                problems.add(field + ": expected " + w + " but was " + (g == null ? "absent" : actualObject.get(field)));
            }
        }
        if (expected.rating() != null) {
            String text = ratingText(json);
            String wrong = ratingTextProblem(expected.rating(), text);
            if (wrong != null) {
                problems.add(wrong);
            }
        }
        return problems.isEmpty() ? null
                : "product " + expected.id() + " v" + expected.version() + ": " + String.join("; ", problems)
                        + "\n  served: " + json;
    }

    private static Map<String, Object> expectedFields(ModelProduct p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("sku", p.sku());
        m.put("name", p.name());
        m.put("brand", p.brand());
        m.put("categories", p.categories());
        m.put("priceCents", p.priceCents());
        m.put("currency", p.currency());
        m.put("stock", p.stock());
        m.put("inStock", p.stock() > 0);
        m.put("rating", null); // compared as a float, above
        m.put("attributes", p.attributes());
        m.put("updatedAt", UTC_MILLIS.format(Instant.ofEpochMilli(p.updatedAtMs())));
        m.put("version", p.version());
        return m;
    }

    /** The rating as written in the JSON text, or null when it is not a number. */
    private static String ratingText(String json) {
        try (JsonParser parser = MAPPER.getFactory().createParser(json)) {
            int depth = 0;
            for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                } else if (t == JsonToken.FIELD_NAME && depth == 1 && parser.currentName().equals("rating")) {
                    JsonToken value = parser.nextToken();
                    return value.isNumeric() ? parser.getText() : null;
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Null when {@code text} reads back as {@code rating}, is not negative, and has the fewest digits possible. */
    static String ratingTextProblem(float rating, String text) {
        if (text == null) {
            return "rating is not a number";
        }
        if (text.startsWith("-")) {
            return "rating " + text + " is negative (−0 must read as 0)";
        }
        BigDecimal written = new BigDecimal(text);
        if (written.floatValue() != rating) {
            return "rating " + text + " does not read back as " + rating;
        }
        int digits = written.signum() == 0 ? 1 : written.stripTrailingZeros().precision();
        int fewest = fewestDigits(rating);
        return digits == fewest ? null
                : "rating " + text + " has " + digits + " significant digits where " + fewest + " read back";
    }

    /**
     * The fewest significant decimal digits that read back as {@code f}: the n-digit decimals next to f are its
     * rounding down and up at n digits, and one of them reads back exactly when some n-digit decimal does.
     */
    static int fewestDigits(float f) {
        if (f == 0f) {
            return 1;
        }
        BigDecimal exact = new BigDecimal(f);
        for (int n = 1; n < 12; n++) {
            for (RoundingMode mode : new RoundingMode[]{RoundingMode.FLOOR, RoundingMode.CEILING}) {
                if (exact.round(new MathContext(n, mode)).floatValue() == f) {
                    return n;
                }
            }
        }
        throw new AssertionError("no decimal reads back as " + f);
    }
}
