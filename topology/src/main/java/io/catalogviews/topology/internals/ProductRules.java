package io.catalogviews.topology.internals;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The contract's rules for events and products (CONTRACT.md section 1), as checks that return the first
 * violation as a sentence naming the field, or {@code null} when the event is valid.
 */
public final class ProductRules {

    static final Pattern ID = Pattern.compile("[A-Za-z0-9._:~-]{1,128}");
    static final Pattern CATEGORY = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    /** 9999-12-31T23:59:59.999Z. */
    static final long MAX_TIMESTAMP_MS = 253_402_300_799_999L;
    static final int MAX_CATEGORIES = 32;
    static final int MAX_ATTRIBUTES = 64;

    private ProductRules() {
    }

    /** Checks the event's own fields and its change. */
    public static String violation(ProductEvent event) {
        if (!ID.matcher(event.getProductId()).matches()) {
            return "productId must match [A-Za-z0-9._:~-]{1,128}";
        }
        if (event.getVersion() <= 0) {
            return "version must be > 0, was " + event.getVersion();
        }
        String occurred = timestampViolation("occurredAt", event.getOccurredAt());
        if (occurred != null) {
            return occurred;
        }
        Object change = event.getChange();
        if (change instanceof ProductUpserted upserted) {
            return productViolation(upserted.getProduct());
        }
        if (change instanceof PriceChanged price) {
            return priceViolation("PriceChanged.", price.getPriceCents(), price.getCurrency());
        }
        if (change instanceof StockChanged stock) {
            return stock.getStock() < 0 ? "StockChanged.stock must be >= 0, was " + stock.getStock() : null;
        }
        return null;
    }

    static String productViolation(Product p) {
        if (!ID.matcher(p.getId()).matches()) {
            return "product.id must match [A-Za-z0-9._:~-]{1,128}";
        }
        String v = lengthViolation("product.sku", p.getSku(), 1, 128);
        if (v == null) {
            v = lengthViolation("product.name", p.getName(), 1, 512);
        }
        if (v == null) {
            v = lengthViolation("product.brand", p.getBrand(), 1, 128);
        }
        if (v == null && p.getBrand().codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL)) {
            v = "product.brand must not contain control characters";
        }
        if (v == null) {
            v = categoriesViolation(p.getCategories());
        }
        if (v == null) {
            v = priceViolation("product.", p.getPriceCents(), p.getCurrency());
        }
        if (v == null && p.getStock() < 0) {
            v = "product.stock must be >= 0, was " + p.getStock();
        }
        if (v == null && p.getRating() != null) {
            float r = p.getRating();
            if (!Float.isFinite(r) || r < 0f || r > 5f) {
                v = "product.rating must be within 0..5 when present, was " + r;
            }
        }
        if (v == null) {
            v = attributesViolation(p.getAttributes());
        }
        if (v == null) {
            v = timestampViolation("product.updatedAt", p.getUpdatedAt());
        }
        return v;
    }

    private static String categoriesViolation(List<String> categories) {
        if (categories.isEmpty()) {
            return "product.categories must hold 1.." + MAX_CATEGORIES + " entries, was empty";
        }
        for (String c : categories) {
            if (!CATEGORY.matcher(c).matches()) {
                return "product.categories entry '" + abbreviate(c) + "' must match [a-z0-9][a-z0-9-]{0,63}";
            }
        }
        int distinct = new LinkedHashSet<>(categories).size();
        if (distinct > MAX_CATEGORIES) {
            return "product.categories must hold 1.." + MAX_CATEGORIES + " distinct entries, was " + distinct;
        }
        return null;
    }

    private static String attributesViolation(Map<String, String> attributes) {
        if (attributes.size() > MAX_ATTRIBUTES) {
            return "product.attributes must hold at most " + MAX_ATTRIBUTES + " entries, was " + attributes.size();
        }
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            int keyLength = e.getKey().codePointCount(0, e.getKey().length());
            if (keyLength < 1 || keyLength > 64) {
                return "product.attributes key '" + abbreviate(e.getKey()) + "' must be 1..64 characters";
            }
            if (e.getValue().codePointCount(0, e.getValue().length()) > 1024) {
                return "product.attributes value of '" + abbreviate(e.getKey()) + "' must be at most 1024 characters";
            }
        }
        return null;
    }

    private static String priceViolation(String prefix, long priceCents, String currency) {
        if (priceCents < 0) {
            return prefix + "priceCents must be >= 0, was " + priceCents;
        }
        if (!CURRENCY.matcher(currency).matches()) {
            return prefix + "currency must be an ISO 4217 code of three upper-case letters, was '"
                    + abbreviate(currency) + "'";
        }
        return null;
    }

    private static String lengthViolation(String field, String value, int min, int max) {
        int n = value.codePointCount(0, value.length());
        return n < min || n > max ? field + " must be " + min + ".." + max + " characters, was " + n : null;
    }

    private static String timestampViolation(String field, Instant t) {
        long ms = t.toEpochMilli();
        return ms < 0 || ms > MAX_TIMESTAMP_MS
                ? field + " must be between 1970-01-01 and 9999-12-31 (UTC), was " + ms + " ms" : null;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }

    /** Collapses duplicate categories (first-seen order) and reads a −0 rating as 0. */
    public static Product normalized(Product p) {
        List<String> categories = new ArrayList<>(new LinkedHashSet<>(p.getCategories()));
        Float rating = p.getRating();
        if (rating != null && rating == 0f) {
            rating = 0f; // -0f == 0f, so this turns -0 into +0
        }
        if (categories.size() == p.getCategories().size() && rating == p.getRating()) {
            return p;
        }
        return Product.newBuilder(p).setCategories(categories).setRating(rating).build();
    }
}
