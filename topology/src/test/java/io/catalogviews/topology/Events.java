package io.catalogviews.topology;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import io.catalogviews.events.codec.ProductEvents;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Valid events and products to start from; each test changes only what it is about. */
final class Events {

    static final Instant UPDATED_AT = Instant.parse("2026-11-29T10:00:00Z");

    private Events() {
    }

    /** When the event of {@code version} happened: one minute per version after {@link #UPDATED_AT}. */
    static Instant occurredAt(long version) {
        return UPDATED_AT.plusSeconds(60 * version);
    }

    /** A product that breaks no rule. */
    static Product product(String id) {
        return ProductEvents.product(id, "SKU-" + id, "Phone " + id, "acme", List.of("phones", "electronics"),
                49_900L, "EUR", 3, 4.5f, Map.of("color", "black"), UPDATED_AT);
    }

    static Product product(String id, UnaryOperator<Product.Builder> change) {
        return change.apply(Product.newBuilder(product(id))).build();
    }

    static ProductEvent upsert(String id, long version) {
        return upsert(product(id), version);
    }

    static ProductEvent upsert(Product product, long version) {
        return ProductEvents.upsert(product.getId(), version, occurredAt(version), product);
    }

    static ProductEvent upsert(String id, long version, UnaryOperator<Product.Builder> change) {
        return upsert(product(id, change), version);
    }

    static ProductEvent priceChanged(String id, long version, long priceCents, String currency) {
        return ProductEvents.priceChanged(id, version, occurredAt(version), priceCents, currency);
    }

    static ProductEvent stockChanged(String id, long version, int stock) {
        return ProductEvents.stockChanged(id, version, occurredAt(version), stock);
    }

    static ProductEvent deleted(String id, long version) {
        return ProductEvents.deleted(id, version, occurredAt(version));
    }

    /** The same event with another productId (the change, and so product.id, untouched). */
    static ProductEvent withProductId(ProductEvent event, String productId) {
        return ProductEvents.event(event.getEventId(), productId, event.getVersion(), event.getOccurredAt(),
                event.getChange());
    }

    static ProductEvent withVersion(ProductEvent event, long version) {
        return ProductEvents.event(event.getEventId(), event.getProductId(), version, event.getOccurredAt(),
                event.getChange());
    }

    static ProductEvent withOccurredAt(ProductEvent event, Instant occurredAt) {
        return ProductEvents.event(event.getEventId(), event.getProductId(), event.getVersion(), occurredAt,
                event.getChange());
    }

    static ProductEvent invalidPrice(String id, long version) {
        return ProductEvents.event("e-" + version, id, version, occurredAt(version), new PriceChanged(-1L, "EUR"));
    }

    static ProductEvent invalidStock(String id, long version) {
        return ProductEvents.event("e-" + version, id, version, occurredAt(version), new StockChanged(-1));
    }

    static ProductEvent upsertWithProductOf(String productId, long version, Product product) {
        return ProductEvents.event("e-" + version, productId, version, occurredAt(version),
                new ProductUpserted(product));
    }
}
