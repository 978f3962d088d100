package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.ProductEvent;
import java.io.IOException;
import org.apache.avro.util.ClassSecurityValidator;
import org.junit.jupiter.api.Test;

class EventClassTrustTest {

  @Test
  void shouldTrustExactlyTheGeneratedRecordsWhenReadingTheCurrentSchema() {
    assertThat(EventClassTrust.namedTypes(SchemaVersions.current(), new java.util.LinkedHashSet<>())).containsExactly(
        "io.catalogviews.events.ProductEvent", "io.catalogviews.events.ProductUpserted",
        "io.catalogviews.events.Product", "io.catalogviews.events.PriceChanged",
        "io.catalogviews.events.StockChanged", "io.catalogviews.events.ProductDeleted");
  }

  @Test
  void shouldLetAvrosOwnSpecificApiReadEventsWhenInstalled() throws IOException {
    EventClassTrust.install();
    EventClassTrust.install(); // idempotent

    ProductEvent event = Samples.upsertRated();

    assertThat(ClassSecurityValidator.getGlobal().isTrusted(io.catalogviews.events.Product.class)).isTrue();
    assertThat(ClassSecurityValidator.getGlobal().isTrusted(java.io.File.class)).isFalse();
    assertThat(ProductEvent.fromByteBuffer(event.toByteBuffer())).isEqualTo(event);
  }
}
