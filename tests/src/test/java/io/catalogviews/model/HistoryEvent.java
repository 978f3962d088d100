package io.catalogviews.model;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import io.catalogviews.events.codec.ProductEvents;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One record of a generated history, in the test's own terms: what the model applies, and what the topology
 * receives once turned into an Avro {@link ProductEvent} ({@link #toAvro()}) and encoded as {@link #json()} says.
 */
public sealed interface HistoryEvent {

    /** The record key: the product id. */
    String productId();

    /** True for the Avro JSON encoding, false for Avro single-object encoding (ignored by tombstones). */
    boolean json();

    /** The event to publish, or null for a tombstone (a record with a null value). */
    ProductEvent toAvro();

    /**
     * The payload of an upsert exactly as published: categories may repeat and the rating may be −0.
     */
    record ProductData(String id, String sku, String name, String brand, List<String> categories, long priceCents,
                       String currency, int stock, Float rating, Map<String, String> attributes, long updatedAtMs) {

        public ProductData {
            categories = List.copyOf(categories);
            attributes = Map.copyOf(attributes);
        }
    }

    record Upsert(String eventId, String productId, long version, long occurredAtMs, ProductData product,
                  boolean json) implements HistoryEvent {
        @Override
        public ProductEvent toAvro() {
            ProductData p = product;
            return ProductEvents.event(eventId, productId, version, Instant.ofEpochMilli(occurredAtMs),
                    new ProductUpserted(ProductEvents.product(p.id(), p.sku(), p.name(), p.brand(), p.categories(),
                            p.priceCents(), p.currency(), p.stock(), p.rating(), p.attributes(),
                            Instant.ofEpochMilli(p.updatedAtMs()))));
        }
    }

    record PriceChange(String eventId, String productId, long version, long occurredAtMs, long priceCents,
                       String currency, boolean json) implements HistoryEvent {
        @Override
        public ProductEvent toAvro() {
            return ProductEvents.event(eventId, productId, version, Instant.ofEpochMilli(occurredAtMs),
                    new PriceChanged(priceCents, currency));
        }
    }

    record StockChange(String eventId, String productId, long version, long occurredAtMs, int stock, boolean json)
            implements HistoryEvent {
        @Override
        public ProductEvent toAvro() {
            return ProductEvents.event(eventId, productId, version, Instant.ofEpochMilli(occurredAtMs),
                    new StockChanged(stock));
        }
    }

    record Delete(String eventId, String productId, long version, long occurredAtMs, boolean json)
            implements HistoryEvent {
        @Override
        public ProductEvent toAvro() {
            return ProductEvents.event(eventId, productId, version, Instant.ofEpochMilli(occurredAtMs),
                    new ProductDeleted());
        }
    }

    /** A record with the product id as key and a null value. */
    record Tombstone(String productId) implements HistoryEvent {
        @Override
        public boolean json() {
            return false;
        }

        @Override
        public ProductEvent toAvro() {
            return null;
        }
    }
}
