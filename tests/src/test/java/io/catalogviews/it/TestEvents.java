package io.catalogviews.it;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Events for tests, with readable defaults. */
public final class TestEvents {

    public static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private TestEvents() {
    }

    public static Product product(String id, String brand, List<String> categories, long priceCents, int stock,
                                  Float rating) {
        return Product.newBuilder().setId(id).setSku("SKU-" + id).setName("Product " + id).setBrand(brand)
                .setCategories(categories).setPriceCents(priceCents).setCurrency("EUR").setStock(stock)
                .setRating(rating).setAttributes(Map.of("color", "black")).setUpdatedAt(T0).build();
    }

    public static ProductEvent upsert(Product p, long version) {
        return event(p.getId(), version, ProductUpserted.newBuilder().setProduct(p).build());
    }

    public static ProductEvent price(String id, long version, long priceCents) {
        return event(id, version, PriceChanged.newBuilder().setPriceCents(priceCents).setCurrency("EUR").build());
    }

    public static ProductEvent stock(String id, long version, int stock) {
        return event(id, version, StockChanged.newBuilder().setStock(stock).build());
    }

    public static ProductEvent deleted(String id, long version) {
        return event(id, version, ProductDeleted.newBuilder().build());
    }

    private static ProductEvent event(String id, long version, Object change) {
        return ProductEvent.newBuilder().setEventId("e-" + id + "-" + version).setProductId(id).setVersion(version)
                .setOccurredAt(T0.plusSeconds(version)).setChange(change).build();
    }
}
