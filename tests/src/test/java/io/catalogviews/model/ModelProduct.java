package io.catalogviews.model;

import java.util.List;
import java.util.Map;

/**
 * A product as the reference model holds it: already normalised (categories without duplicates in first-seen
 * order, a −0 rating read as 0), with the version of the last event applied to it.
 */
public record ModelProduct(String id, String sku, String name, String brand, List<String> categories,
                           long priceCents, String currency, int stock, Float rating, Map<String, String> attributes,
                           long updatedAtMs, long version) {

    public ModelProduct {
        categories = List.copyOf(categories);
        attributes = Map.copyOf(attributes);
    }

    public boolean inStock() {
        return stock > 0;
    }

    ModelProduct withPrice(long newPriceCents, String newCurrency, long occurredAtMs, long newVersion) {
        return new ModelProduct(id, sku, name, brand, categories, newPriceCents, newCurrency, stock, rating,
                attributes, occurredAtMs, newVersion);
    }

    ModelProduct withStock(int newStock, long occurredAtMs, long newVersion) {
        return new ModelProduct(id, sku, name, brand, categories, priceCents, currency, newStock, rating,
                attributes, occurredAtMs, newVersion);
    }
}
