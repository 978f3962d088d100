package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.views.json.FloatFormat;
import io.catalogviews.views.json.JsonBytes;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders the contract's product JSON, once per applied event. Reads then serve these bytes as they are.
 */
public final class ProductJson {

    /**
     * Bumped whenever the rendering changes, so that rows rendered by an older release can be found and
     * re-rendered from their Avro state (the input topic's retention cannot rebuild them).
     */
    public static final int RENDER_VERSION = 1;

    private static final DateTimeFormatter UTC_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private ProductJson() {
    }

    /**
     * Renders a product that has already been validated and normalised (categories without duplicates,
     * rating finite and not −0).
     */
    public static byte[] render(Product p, long version) {
        JsonBytes out = new JsonBytes(384);
        out.raw((byte) '{');
        out.name("id").string(p.getId()).comma();
        out.name("sku").string(p.getSku()).comma();
        out.name("name").string(p.getName()).comma();
        out.name("brand").string(p.getBrand()).comma();
        out.name("categories").raw((byte) '[');
        List<String> categories = p.getCategories();
        for (int i = 0; i < categories.size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.string(categories.get(i));
        }
        out.raw((byte) ']').comma();
        out.name("priceCents").number(p.getPriceCents()).comma();
        out.name("currency").string(p.getCurrency()).comma();
        out.name("stock").number(p.getStock()).comma();
        out.name("inStock").bool(p.getStock() > 0).comma();
        out.name("rating");
        if (p.getRating() == null) {
            out.nullValue();
        } else {
            out.ascii(FloatFormat.shortest(p.getRating()));
        }
        out.comma();
        out.name("attributes").raw((byte) '{');
        boolean first = true;
        // Sorted so that the same product always renders to the same bytes (ETag-stable, diffable).
        for (Map.Entry<String, String> e : new TreeMap<>(p.getAttributes()).entrySet()) {
            if (!first) {
                out.comma();
            }
            first = false;
            out.string(e.getKey()).raw((byte) ':').string(e.getValue());
        }
        out.raw((byte) '}').comma();
        out.name("updatedAt").string(formatTimestamp(p.getUpdatedAt())).comma();
        out.name("version").number(version);
        out.raw((byte) '}');
        return out.toByteArray();
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC, as every timestamp of the contract. */
    public static String formatTimestamp(Instant t) {
        return UTC_MILLIS.format(t);
    }
}
