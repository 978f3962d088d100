package io.catalogviews.events.codec;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Concise construction of {@link ProductEvent}s and {@link Product}s, for producers (the CLI) and tests.
 *
 * <p>Nothing is validated beyond non-null required values: tests need to build events that break the rules of
 * CONTRACT.md section 1 to check that they are dead-lettered. Convenience methods give each event a random UUID
 * as {@code eventId} ("unique per event"); {@link #event} takes an explicit one. Collections are copied, so
 * immutable ones ({@code List.of}) may be passed and later changes to the caller's copy do not leak into events.
 */
public final class ProductEvents {
  static {
    // Copy-builders such as ProductEvent.newBuilder(event) deep-copy through Avro's class lookup.
    EventClassTrust.install();
  }

  private ProductEvents() {}

  /** A {@code ProductUpserted} event: full replacement of {@code product}, whose id is used as {@code productId}. */
  public static ProductEvent upsert(String productId, long version, Instant occurredAt, Product product) {
    return event(newEventId(), productId, version, occurredAt,
        new ProductUpserted(Objects.requireNonNull(product, "product")));
  }

  /** A {@code PriceChanged} event. */
  public static ProductEvent priceChanged(String productId, long version, Instant occurredAt, long priceCents,
      String currency) {
    return event(newEventId(), productId, version, occurredAt,
        new PriceChanged(priceCents, Objects.requireNonNull(currency, "currency")));
  }

  /** A {@code StockChanged} event. */
  public static ProductEvent stockChanged(String productId, long version, Instant occurredAt, int stock) {
    return event(newEventId(), productId, version, occurredAt, new StockChanged(stock));
  }

  /** A {@code ProductDeleted} event. */
  public static ProductEvent deleted(String productId, long version, Instant occurredAt) {
    return event(newEventId(), productId, version, occurredAt, new ProductDeleted());
  }

  /**
   * An event with every field given.
   *
   * @param change a {@link ProductUpserted}, {@link PriceChanged}, {@link StockChanged} or {@link ProductDeleted}
   */
  public static ProductEvent event(String eventId, String productId, long version, Instant occurredAt,
      Object change) {
    if (!(change instanceof ProductUpserted || change instanceof PriceChanged || change instanceof StockChanged
        || change instanceof ProductDeleted)) {
      throw new IllegalArgumentException("change must be one of the four change records, not " + change);
    }
    return new ProductEvent(Objects.requireNonNull(eventId, "eventId"), Objects.requireNonNull(productId, "productId"),
        version, Objects.requireNonNull(occurredAt, "occurredAt"), change);
  }

  /**
   * A product with every field given.
   *
   * @param rating null when the product has no rating
   */
  public static Product product(String id, String sku, String name, String brand, List<String> categories,
      long priceCents, String currency, int stock, Float rating, Map<String, String> attributes,
      Instant updatedAt) {
    return new Product(Objects.requireNonNull(id, "id"), Objects.requireNonNull(sku, "sku"),
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(brand, "brand"),
        new ArrayList<>(Objects.requireNonNull(categories, "categories")), priceCents,
        Objects.requireNonNull(currency, "currency"), stock, rating,
        new LinkedHashMap<>(Objects.requireNonNull(attributes, "attributes")),
        Objects.requireNonNull(updatedAt, "updatedAt"));
  }

  /**
   * A plausible product for tests and demos: sku {@code SKU-<id>}, name {@code Product <id>}, the given brand,
   * category, price in EUR and stock, no rating, no attributes.
   */
  public static Product product(String id, String brand, String category, long priceCents, int stock,
      Instant updatedAt) {
    return product(id, "SKU-" + id, "Product " + id, brand, List.of(category), priceCents, "EUR", stock, null,
        Map.of(), updatedAt);
  }

  private static String newEventId() {
    return UUID.randomUUID().toString();
  }
}
