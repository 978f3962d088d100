package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProductEventCodecRoundTripTest {
  private final ProductEventCodec codec = ProductEventCodec.create();

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.catalogviews.events.codec.Samples#allKinds")
  void shouldDecodeTheSameEventWhenEncodedAsSingleObject(String label, ProductEvent event) {
    DecodeResult result = codec.decode(codec.encodeSingleObject(event));

    assertThat(result).isEqualTo(new DecodeResult.Decoded(event, Encoding.SINGLE_OBJECT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.catalogviews.events.codec.Samples#allKinds")
  void shouldDecodeTheSameEventWhenEncodedAsJson(String label, ProductEvent event) {
    String json = codec.encodeJson(event);

    assertThat(json).doesNotContain("\n", "\r");
    assertThat(codec.decode(json.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new DecodeResult.Decoded(event, Encoding.JSON));
  }

  @Test
  void shouldUseJavaTypesWhenDecodingStringsMapsAndTimestamps() {
    for (byte[] value : List.of(codec.encodeSingleObject(Samples.upsertRated()),
        codec.encodeJson(Samples.upsertRated()).getBytes(StandardCharsets.UTF_8))) {
      ProductEvent event = decoded(value);
      Product product = ((ProductUpserted) event.getChange()).getProduct();

      assertThat(event.getEventId()).isInstanceOf(String.class);
      assertThat(event.getOccurredAt()).isEqualTo(Samples.OCCURRED_AT);
      assertThat(product.getUpdatedAt()).isEqualTo(Samples.UPDATED_AT);
      assertThat(product.getCategories()).containsExactly("phones", "electronics").allMatch(String.class::isInstance);
      assertThat(product.getAttributes()).containsEntry("color", "black").containsEntry("ünïcode", "✓ 日本");
      assertThat(product.getAttributes().keySet()).allMatch(String.class::isInstance);
      assertThat(product.getRating()).isEqualTo(4.5f);
    }
  }

  @Test
  void shouldDecodeRatingsTheContractRejectsWhenTheyAreValidAvro() {
    // Whether a rating is acceptable is a rule of the views (dead letter "invalid"), not a decoding matter.
    for (float rating : new float[] {Float.NaN, Float.POSITIVE_INFINITY, -0.0f, 7f}) {
      ProductEvent event = ProductEvents.upsert("p-1", 1, Samples.OCCURRED_AT, Samples.phone(rating, Map.of()));

      for (byte[] value : List.of(codec.encodeSingleObject(event),
          codec.encodeJson(event).getBytes(StandardCharsets.UTF_8))) {
        Float decoded = ((ProductUpserted) decoded(value).getChange()).getProduct().getRating();
        assertThat(Float.floatToIntBits(decoded)).isEqualTo(Float.floatToIntBits(rating));
      }
    }
  }

  @Test
  void shouldLabelUnionsByFullNameWhenEncodingJson() {
    assertThat(codec.encodeJson(Samples.priceChanged()))
        .isEqualTo("{\"eventId\":\"e-3\",\"productId\":\"p-42\",\"version\":9,\"occurredAt\":1795946400123,"
            + "\"change\":{\"io.catalogviews.events.PriceChanged\":{\"priceCents\":1999,\"currency\":\"USD\"}}}");
    assertThat(codec.encodeJson(Samples.upsertRated())).contains("\"rating\":{\"float\":4.5}");
    assertThat(codec.encodeJson(Samples.upsertUnratedWithoutAttributes()))
        .contains("\"rating\":null", "\"attributes\":{}");
    assertThat(codec.encodeJson(Samples.deleted()))
        .endsWith("\"change\":{\"io.catalogviews.events.ProductDeleted\":{}}}");
  }

  @Test
  void shouldDecodeHandWrittenJsonWhenWrittenAsTheContractShows() {
    String price = """

          {"eventId": "e-1", "productId": "p-42", "version": 7, "occurredAt": 1795946400000,
           "change": {"io.catalogviews.events.PriceChanged": {"priceCents": 49900, "currency": "EUR"}}}
        """;
    String upsert = """
        {"eventId":"e-2","productId":"p-42","version":8,"occurredAt":1795946400000,
         "change":{"io.catalogviews.events.ProductUpserted":{"product":{
           "id":"p-42","sku":"SKU-42","name":"Phone X","brand":"acme","categories":["phones","electronics"],
           "priceCents":49900,"currency":"EUR","stock":3,"rating":{"float":4.5},
           "attributes":{"color":"black"},"updatedAt":1795946400000}}}}
        """;
    String unrated = upsert.replace("{\"float\":4.5}", "null");

    assertThat(decoded(price)).isEqualTo(ProductEvents.event("e-1", "p-42", 7, Instant.ofEpochMilli(1795946400000L),
        new PriceChanged(49900L, "EUR")));
    Product product = ((ProductUpserted) decoded(upsert).getChange()).getProduct();
    assertThat(product).isEqualTo(ProductEvents.product("p-42", "SKU-42", "Phone X", "acme",
        List.of("phones", "electronics"), 49900, "EUR", 3, 4.5f, Map.of("color", "black"),
        Instant.ofEpochMilli(1795946400000L)));
    assertThat(((ProductUpserted) decoded(unrated).getChange()).getProduct().getRating()).isNull();
  }

  @Test
  void shouldDecodeJsonWhenFieldsComeInAnotherOrderOrWithAByteOrderMark() {
    String reordered = "{\"change\":{\"io.catalogviews.events.ProductDeleted\":{}},\"version\":3,"
        + "\"occurredAt\":0,\"productId\":\"p-1\",\"eventId\":\"e\"}";
    byte[] withBom = ("\uFEFF" + codec.encodeJson(Samples.stockChanged())).getBytes(StandardCharsets.UTF_8);

    assertThat(decoded(reordered)).isEqualTo(ProductEvents.event("e", "p-1", 3, Instant.EPOCH, new ProductDeleted()));
    assertThat(decoded(withBom)).isEqualTo(Samples.stockChanged());
  }

  @Test
  void shouldDecodeSingleObjectWhenWrittenFromTheAvroSpecificationAlone() throws IOException {
    // What a producer that never saw this project's .avsc files writes: magic, the fingerprint published by the
    // contract's canonical form, and the body field by field in schema order.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0xC3, 0x01});
    long fingerprint = SchemaVersionsTest.V1_FINGERPRINT;
    for (int i = 0; i < 8; i++) {
      out.write((int) (fingerprint >>> (8 * i)) & 0xFF);
    }
    BinaryEncoder body = EncoderFactory.get().directBinaryEncoder(out, null);
    body.writeString("e-9");
    body.writeString("p-7");
    body.writeLong(12);
    body.writeLong(1_000L);
    body.writeIndex(1); // PriceChanged, the second branch of the change union
    body.writeLong(250);
    body.writeString("JPY");
    body.flush();

    assertThat(decoded(out.toByteArray()))
        .isEqualTo(ProductEvents.event("e-9", "p-7", 12, Instant.ofEpochMilli(1_000), new PriceChanged(250L, "JPY")));
  }

  @Test
  void shouldCarryTheVersionOneFingerprintWhenEncodingSingleObject() {
    byte[] value = codec.encodeSingleObject(Samples.deleted());
    long expected = SchemaVersions.fingerprint(SchemaVersions.released().byNumber(1).orElseThrow().schema());

    assertThat(value[0]).isEqualTo((byte) 0xC3);
    assertThat(value[1]).isEqualTo((byte) 0x01);
    assertThat(SingleObjectDecoder.fingerprintOf(value))
        .isEqualTo(expected)
        .isEqualTo(SchemaVersionsTest.V1_FINGERPRINT);
  }

  @Test
  void shouldDecodeEveryValueCorrectlyWhenManyThreadsShareOneCodec() throws Exception {
    List<ProductEvent> events = Samples.allKinds().map(arguments -> (ProductEvent) arguments.get()[1]).toList();
    List<byte[]> values = new ArrayList<>();
    for (ProductEvent event : events) {
      values.add(codec.encodeSingleObject(event));
      values.add(codec.encodeJson(event).getBytes(StandardCharsets.UTF_8));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> runs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t;
        runs.add(pool.submit(() -> {
          for (int i = 0; i < 2_000; i++) {
            int n = (i + offset) % values.size();
            DecodeResult result = codec.decode(values.get(n));
            if (!(result instanceof DecodeResult.Decoded decoded) || !decoded.event().equals(events.get(n / 2))) {
              return false;
            }
            if (!codec.encodeJson(events.get(n / 2)).equals(new String(values.get(n | 1), StandardCharsets.UTF_8))) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> run : runs) {
        assertThat(run.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private ProductEvent decoded(String json) {
    return decoded(json.getBytes(StandardCharsets.UTF_8));
  }

  private ProductEvent decoded(byte[] value) {
    DecodeResult result = codec.decode(value);
    assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
    return ((DecodeResult.Decoded) result).event();
  }
}
