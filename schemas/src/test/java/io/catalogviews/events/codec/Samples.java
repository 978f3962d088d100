package io.catalogviews.events.codec;

import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Events shared by the codec tests: every change kind, ratings present and absent, empty and full maps. */
final class Samples {
  static final Instant OCCURRED_AT = Instant.parse("2026-11-29T10:00:00.123Z");
  static final Instant UPDATED_AT = Instant.parse("2026-11-29T09:59:59.999Z");

  private Samples() {}

  static Product phone(Float rating, Map<String, String> attributes) {
    return ProductEvents.product("p-42", "SKU-42", "Phone X – 128 GB \"pro\"\nnew line", "acme",
        List.of("phones", "electronics"), 49_900L, "EUR", 3, rating, attributes, UPDATED_AT);
  }

  static ProductEvent upsertRated() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("color", "black");
    attributes.put("ünïcode", "✓ 日本");
    return ProductEvents.event("e-1", "p-42", 7, OCCURRED_AT, new io.catalogviews.events.ProductUpserted(
        phone(4.5f, attributes)));
  }

  static ProductEvent upsertUnratedWithoutAttributes() {
    return ProductEvents.event("e-2", "p-42", 8, OCCURRED_AT,
        new io.catalogviews.events.ProductUpserted(phone(null, Map.of())));
  }

  static ProductEvent priceChanged() {
    return ProductEvents.event("e-3", "p-42", 9, OCCURRED_AT, new io.catalogviews.events.PriceChanged(1999L, "USD"));
  }

  static ProductEvent stockChanged() {
    return ProductEvents.event("e-4", "p-42", 10, OCCURRED_AT, new io.catalogviews.events.StockChanged(0));
  }

  static ProductEvent deleted() {
    return ProductEvents.event("e-5", "p-42", 11, OCCURRED_AT, new io.catalogviews.events.ProductDeleted());
  }

  /** Named arguments for parameterized tests: (label, event). */
  static Stream<Arguments> allKinds() {
    return Stream.of(
        Arguments.of("upsert with rating and attributes", upsertRated()),
        Arguments.of("upsert without rating, empty attributes", upsertUnratedWithoutAttributes()),
        Arguments.of("price changed", priceChanged()),
        Arguments.of("stock changed", stockChanged()),
        Arguments.of("deleted (empty record)", deleted()));
  }
}
