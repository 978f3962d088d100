package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProductEventsTest {
  private static final Instant AT = Instant.parse("2026-01-02T03:04:05.678Z");

  @Test
  void shouldFillEveryFieldWhenBuildingEachChangeKind() {
    Product product = ProductEvents.product("p-1", "acme", "phones", 100, 2, AT);

    ProductEvent upsert = ProductEvents.upsert("p-1", 1, AT, product);
    ProductEvent price = ProductEvents.priceChanged("p-1", 2, AT, 250, "USD");
    ProductEvent stock = ProductEvents.stockChanged("p-1", 3, AT, 0);
    ProductEvent deleted = ProductEvents.deleted("p-1", 4, AT);

    assertThat(List.of(upsert, price, stock, deleted)).allSatisfy(event -> {
      assertThat(event.getProductId()).isEqualTo("p-1");
      assertThat(event.getOccurredAt()).isEqualTo(AT);
      assertThat(event.getEventId()).isNotBlank();
    });
    assertThat(List.of(upsert, price, stock, deleted)).extracting(ProductEvent::getVersion)
        .containsExactly(1L, 2L, 3L, 4L);
    assertThat(upsert.getChange()).isEqualTo(new ProductUpserted(product));
    assertThat(price.getChange()).isEqualTo(new PriceChanged(250L, "USD"));
    assertThat(stock.getChange()).isEqualTo(new StockChanged(0));
    assertThat(deleted.getChange()).isEqualTo(new ProductDeleted());
    assertThat(product).isEqualTo(ProductEvents.product("p-1", "SKU-p-1", "Product p-1", "acme", List.of("phones"),
        100, "EUR", 2, null, Map.of(), AT));
  }

  @Test
  void shouldGiveEachEventItsOwnIdWhenTheIdIsNotGiven() {
    assertThat(ProductEvents.deleted("p", 1, AT).getEventId())
        .isNotEqualTo(ProductEvents.deleted("p", 1, AT).getEventId());
  }

  @Test
  void shouldCopyCollectionsWhenBuildingAProduct() {
    List<String> categories = new ArrayList<>(List.of("a"));
    Product product = ProductEvents.product("p", "s", "n", "b", categories, 1, "EUR", 1, 1.5f, Map.of("k", "v"), AT);
    categories.add("b");

    assertThat(product.getCategories()).containsExactly("a");
    product.getAttributes().put("k2", "v2"); // immutable input maps still give a modifiable product
    assertThat(product.getAttributes()).containsOnlyKeys("k", "k2");
  }

  @Test
  void shouldRefuseWhenTheChangeIsNotAChangeRecord() {
    assertThatThrownBy(() -> ProductEvents.event("e", "p", 1, AT, "price"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldDeepCopyWhenUsingTheGeneratedCopyBuilder() {
    // Deep copies go through Avro's class lookup, which EventClassTrust has to allow.
    ProductEvent event = Samples.upsertRated();

    ProductEvent copy = ProductEvent.newBuilder(event).setVersion(99).build();

    assertThat(copy.getChange()).isEqualTo(event.getChange()).isNotSameAs(event.getChange());
    assertThat(copy.getVersion()).isEqualTo(99L);
  }

  @Test
  void shouldEncodeBuiltEventsWhenUsingTheCodec() {
    ProductEventCodec codec = ProductEventCodec.create();
    ProductEvent event = ProductEvents.stockChanged("p", 5, AT, 7);

    assertThat(codec.decode(codec.encodeSingleObject(event))).isEqualTo(new DecodeResult.Decoded(event,
        Encoding.SINGLE_OBJECT));
    assertThatThrownBy(() -> codec.encodeJson(new ProductEvent())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cannot encode event null: ");
  }
}
