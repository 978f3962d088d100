package io.catalogviews.bench.catalog;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The contract's product JSON, written from CONTRACT.md by the harness itself (it shares no code with the
 * service's renderer, so that the verifier checks the service against the contract, not against itself). Also
 * the stored JSON of the PostgreSQL peer.
 */
public final class ProductJsonText {

    private static final DateTimeFormatter UTC_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private ProductJsonText() {
    }

    public static String render(String id, String sku, String name, String brand, List<String> categories,
                                long priceCents, String currency, int stock, Float rating,
                                Map<String, String> attributes, long updatedAtMs, long version) {
        StringBuilder b = new StringBuilder(400);
        b.append("{\"id\":");
        string(b, id);
        b.append(",\"sku\":");
        string(b, sku);
        b.append(",\"name\":");
        string(b, name);
        b.append(",\"brand\":");
        string(b, brand);
        b.append(",\"categories\":[");
        for (int i = 0; i < categories.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            string(b, categories.get(i));
        }
        b.append("],\"priceCents\":").append(priceCents);
        b.append(",\"currency\":");
        string(b, currency);
        b.append(",\"stock\":").append(stock);
        b.append(",\"inStock\":").append(stock > 0);
        b.append(",\"rating\":").append(rating == null ? "null" : shortest(rating));
        b.append(",\"attributes\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(attributes).entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            string(b, e.getKey());
            b.append(':');
            string(b, e.getValue());
        }
        b.append("},\"updatedAt\":");
        string(b, UTC_MILLIS.format(Instant.ofEpochMilli(updatedAtMs)));
        b.append(",\"version\":").append(version).append('}');
        return b.toString();
    }

    /**
     * The contract's rating text: the shortest decimal that reads back as the same float, so {@code 5} rather than
     * {@code 5.0}. {@link Float#toString} gives the shortest digits for the catalog's ratings (one decimal between
     * 1 and 5), with a {@code .0} this drops.
     */
    static String shortest(float rating) {
        String s = Float.toString(rating);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
