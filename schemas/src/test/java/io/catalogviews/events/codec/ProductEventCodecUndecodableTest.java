package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.ProductEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ProductEventCodecUndecodableTest {
  private final ProductEventCodec codec = ProductEventCodec.create();

  @Test
  void shouldExplainThatATombstoneIsNullWhenTheValueIsEmpty() {
    assertThat(detail(new byte[0])).isEqualTo("empty value (0 bytes); a tombstone must be a null value");
  }

  @Test
  void shouldRefuseWithoutThrowingWhenGivenANullValue() {
    assertThat(detail((byte[]) null)).startsWith("null value: a tombstone is not an event");
  }

  @Test
  void shouldExplainThatAWhitespaceValueIsBlankWhenItHasNoJsonObject() {
    assertThat(detail(" \n\t".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("blank value (3 bytes of whitespace); a tombstone must be a null value");
  }

  @Test
  void shouldNameTheConfluentFramingAndSchemaIdWhenTheValueStartsWithMagicByteZero() {
    byte[] body = Arrays.copyOfRange(codec.encodeSingleObject(Samples.priceChanged()), 10, 30);
    byte[] value = concat(new byte[] {0x00, 0x00, 0x00, 0x00, 0x2A}, body);

    assertThat(detail(value)).isEqualTo("Confluent Schema Registry framing (magic byte 0x00, schema id 42) is not"
        + " accepted: no schema registry is configured (--schema-registry-url); use Avro single-object encoding or"
        + " Avro JSON");
  }

  @Test
  void shouldNameTheFingerprintAndVersionCountWhenTheFingerprintIsUnknown() {
    byte[] value = codec.encodeSingleObject(Samples.priceChanged());
    long unknown = 0x0123456789ABCDEFL;
    for (int i = 0; i < 8; i++) {
      value[2 + i] = (byte) (unknown >>> (8 * i));
    }

    assertThat(detail(value)).isEqualTo("unknown schema fingerprint 0x0123456789ABCDEF (not one of the "
        + SchemaVersions.released().size() + " released versions)");
  }

  @Test
  void shouldSayTheHeaderIsTruncatedWhenFewerThanTenBytesFollowTheMagic() {
    assertThat(detail(new byte[] {(byte) 0xC3, 0x01, 0x67})).startsWith(
        "truncated Avro single-object header: 3 of 10 bytes");
    assertThat(detail(new byte[] {(byte) 0xC3})).startsWith("truncated Avro single-object header: 1 of 10 bytes");
  }

  @Test
  void shouldSayTheBodyDoesNotMatchWhenTheBodyIsTruncated() {
    byte[] value = codec.encodeSingleObject(Samples.upsertRated());

    assertThat(detail(Arrays.copyOf(value, value.length - 3)))
        .startsWith("Avro single-object body does not match schema version 1: ");
    assertThat(detail(Arrays.copyOf(value, 10)))
        .isEqualTo("Avro single-object body does not match schema version 1: unexpected end of data (the value is"
            + " truncated) (field eventId)");
  }

  @Test
  void shouldCountLeftoverBytesWhenTheBodyIsLongerThanTheEvent() {
    byte[] value = concat(codec.encodeSingleObject(Samples.stockChanged()), new byte[] {0, 0});

    assertThat(detail(value))
        .isEqualTo("Avro single-object body does not match schema version 1: 2 bytes left over after the end of the"
            + " event");
  }

  @Test
  void shouldNameTheBadBranchWhenTheUnionIndexIsOutOfRange() throws IOException {
    byte[] value = singleObject(body -> {
      body.writeString("e");
      body.writeString("p");
      body.writeLong(1);
      body.writeLong(0);
      body.writeIndex(7);
    });

    assertThat(detail(value)).startsWith("Avro single-object body does not match schema version 1: ")
        .contains("7");
  }

  @Test
  @Timeout(5)
  void shouldRefuseQuicklyWithoutAllocatingWhenTheBodyClaimsAHugeString() throws IOException {
    // A 2 GB claim in a 20-byte value: Avro's own BinaryMessageDecoder allocates it and fails with
    // OutOfMemoryError; the codec must check the claim against the bytes present instead.
    byte[] value = singleObject(body -> {
      body.writeLong(2_000_000_000L);
      body.writeFixed(new byte[5]);
    });

    assertThat(detail(value)).isEqualTo("Avro single-object body does not match schema version 1: Attempted to read"
        + " 2000000000 bytes, but only 5 bytes are available (field eventId)");
  }

  @Test
  @Timeout(5)
  void shouldRefuseQuicklyWhenTheBodyClaimsAHugeArray() throws IOException {
    byte[] value = singleObject(body -> {
      body.writeString("e");
      body.writeString("p");
      body.writeLong(1);
      body.writeLong(0);
      body.writeIndex(0);
      for (String field : List.of("p", "SKU", "name", "brand")) {
        body.writeString(field);
      }
      body.writeArrayStart();
      body.setItemCount(1_500_000_000L);
      body.writeFixed(new byte[4]);
    });

    assertThat(detail(value)).startsWith("Avro single-object body does not match schema version 1: Collection claims"
        + " 1500000000 elements");
  }

  @Test
  void shouldSayJsonIsMalformedWhenTheTextIsNotJson() {
    assertThat(detail("{\"eventId\": \"e\", oops}")).startsWith("Avro JSON is not well-formed JSON: ");
    assertThat(detail("{\"eventId\": \"e\"")).startsWith("Avro JSON is not well-formed JSON: ");
  }

  @Test
  void shouldNameTheExpectedTypeWhenAJsonFieldHasTheWrongType() {
    String json = codec.encodeJson(Samples.priceChanged()).replace("\"version\":9", "\"version\":\"9\"");

    assertThat(detail(json))
        .isEqualTo("Avro JSON does not match the ProductEvent schema: Expected long. Got VALUE_STRING (field version)");
  }

  @Test
  void shouldNameTheNestedFieldAndHowToWriteAUnionWhenARatingIsABareNumber() {
    String json = codec.encodeJson(Samples.upsertRated()).replace("\"rating\":{\"float\":4.5}", "\"rating\":4.5");

    assertThat(detail(json)).isEqualTo("Avro JSON does not match the ProductEvent schema: Expected start-union. Got"
        + " VALUE_NUMBER_FLOAT (field change.product.rating) (a non-null union value is written as"
        + " {\"<branch type>\": value}, e.g. \"rating\": {\"float\": 4.5})");
  }

  @Test
  void shouldNameTheNestedFieldWhenABinaryBodyBreaksInsideTheProduct() {
    byte[] value = codec.encodeSingleObject(Samples.upsertRated());

    assertThat(detail(Arrays.copyOf(value, value.length - 12)))
        .startsWith("Avro single-object body does not match schema version 1: ")
        .endsWith("(field change.product.attributes)");
  }

  @Test
  void shouldNameTheMissingFieldWhenAJsonFieldIsAbsent() {
    String json = codec.encodeJson(Samples.upsertRated()).replace("\"rating\":{\"float\":4.5},", "");

    assertThat(detail(json)).startsWith("Avro JSON does not match the ProductEvent schema: ").contains("rating");
  }

  @Test
  void shouldNameTheUnionProblemWhenTheChangeIsNotLabelled() {
    String json = codec.encodeJson(Samples.priceChanged())
        .replace("{\"io.catalogviews.events.PriceChanged\":{\"priceCents\":1999,\"currency\":\"USD\"}}",
            "{\"priceCents\":1999,\"currency\":\"USD\"}");

    assertThat(detail(json)).startsWith("Avro JSON does not match the ProductEvent schema: ")
        .contains("(field change)");
    assertThat(detail(codec.encodeJson(Samples.priceChanged()).replace("io.catalogviews.events.PriceChanged",
        "PriceChanged"))).isEqualTo("Avro JSON does not match the ProductEvent schema: Unknown union branch"
        + " PriceChanged (field change)");
  }

  @Test
  void shouldRefuseTrailingContentWhenTheJsonObjectIsFollowedByMore() {
    String json = codec.encodeJson(Samples.deleted());

    assertThat(detail(json + " {\"another\":1}")).isEqualTo("Avro JSON has content after the end of the event"
        + " object, at character " + (json.length() + 2) + ": \"{\"another\":1}\"; a record value holds one event");
    assertThat(detail(json + "x")).startsWith("Avro JSON has content after the end of the event object");
    assertThat(codec.decode((json + " \r\n").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(DecodeResult.Decoded.class);
  }

  @Test
  void shouldNameTheOffsetWhenJsonIsNotValidUtf8() {
    byte[] json = codec.encodeJson(Samples.deleted()).getBytes(StandardCharsets.UTF_8);
    byte[] value = concat(new byte[] {' '}, Arrays.copyOf(json, 14), new byte[] {(byte) 0xFF},
        Arrays.copyOfRange(json, 14, json.length));

    assertThat(detail(value))
        .isEqualTo("Avro JSON is not valid UTF-8: malformed byte sequence at byte offset 15 (0xFF)");
  }

  @Test
  void shouldShowTheFirstBytesWhenTheFramingIsUnknown() {
    assertThat(detail("hello".getBytes(StandardCharsets.UTF_8))).isEqualTo("unknown framing: first bytes 0x68 0x65"
        + " 0x6C 0x6C …; expected Avro single-object encoding (0xC3 0x01) or an Avro JSON object ('{')");
    assertThat(detail(new byte[] {(byte) 0xC3, 0x02})).startsWith("unknown framing: first bytes 0xC3 0x02;");
    assertThat(detail("[{}]".getBytes(StandardCharsets.UTF_8))).startsWith("unknown framing: first bytes 0x5B");
    assertThat(detail(new byte[] {0x00, 0x01})).startsWith("unknown framing: first bytes 0x00 0x01;");
  }

  @Test
  void shouldNeverThrowNorYieldANullEventWhenGivenRandomBytes() {
    SplittableRandom random = new SplittableRandom(20261129L);
    byte[] header = Arrays.copyOf(codec.encodeSingleObject(Samples.deleted()), 10);
    for (int i = 0; i < 30_000; i++) {
      byte[] value = new byte[random.nextInt(0, 200)];
      for (int j = 0; j < value.length; j++) {
        value[j] = (byte) random.nextInt(256);
      }
      switch (i % 3) {
        case 1 -> value = concat(header, value); // exercises the body decoder, not only the framing
        case 2 -> value = concat("{\"eventId\":".getBytes(StandardCharsets.UTF_8), value);
        default -> { }
      }
      assertDecodesOrExplains(value);
    }
  }

  @Test
  void shouldNeverThrowWhenAValidValueIsTruncatedOrHasAByteChanged() {
    SplittableRandom random = new SplittableRandom(42L);
    List<byte[]> valid = new ArrayList<>();
    for (ProductEvent event : List.of(Samples.upsertRated(), Samples.upsertUnratedWithoutAttributes(),
        Samples.priceChanged(), Samples.stockChanged(), Samples.deleted())) {
      valid.add(codec.encodeSingleObject(event));
      valid.add(codec.encodeJson(event).getBytes(StandardCharsets.UTF_8));
    }
    for (byte[] value : valid) {
      for (int length = 0; length < value.length; length++) {
        DecodeResult result = codec.decode(Arrays.copyOf(value, length));
        assertThat(result).as("prefix of %d bytes", length).isInstanceOf(DecodeResult.Undecodable.class);
      }
      for (int i = 0; i < 2_000; i++) {
        byte[] changed = value.clone();
        changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
        assertDecodesOrExplains(changed);
      }
    }
  }

  @Test
  void shouldNeverThrowNorYieldANullEventWhenConfluentFramedBytesAreHostile() {
    InMemoryRegistry registry = new InMemoryRegistry().with(1, SchemaVersions.current())
        .with(2, ConfluentFramedDecodingTest.olderWithoutRating());
    ProductEventCodec withRegistry = ProductEventCodec.withSchemaRegistry(registry);
    SplittableRandom random = new SplittableRandom(20261201L);
    int[] ids = {0, -1, 1, 2, 3, 999, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x00FFFFFF};
    List<byte[]> valid = new ArrayList<>();
    for (ProductEvent event : List.of(Samples.upsertRated(), Samples.upsertUnratedWithoutAttributes(),
        Samples.priceChanged(), Samples.stockChanged(), Samples.deleted())) {
      valid.add(withRegistry.encodeConfluent(1, event));
    }
    for (int i = 0; i < 40_000; i++) {
      byte[] value;
      switch (i % 4) {
        case 0 -> { // a short header: the magic byte and 0..3 bytes of id
          value = new byte[random.nextInt(1, 5)];
          for (int j = 1; j < value.length; j++) {
            value[j] = (byte) random.nextInt(256);
          }
        }
        case 1 -> { // a chosen id (unknown, not positive, extreme or registered) and a random body
          int id = ids[random.nextInt(ids.length)];
          value = new byte[5 + random.nextInt(0, 200)];
          value[1] = (byte) (id >>> 24);
          value[2] = (byte) (id >>> 16);
          value[3] = (byte) (id >>> 8);
          value[4] = (byte) id;
          for (int j = 5; j < value.length; j++) {
            value[j] = (byte) random.nextInt(256);
          }
        }
        case 2 -> { // a valid value cut short
          byte[] whole = valid.get(random.nextInt(valid.size()));
          value = Arrays.copyOf(whole, random.nextInt(1, whole.length));
        }
        default -> { // a valid value with one byte after the magic changed
          value = valid.get(random.nextInt(valid.size())).clone();
          value[random.nextInt(1, value.length)] = (byte) random.nextInt(256);
        }
      }
      assertDecodesOrExplains(withRegistry, value);
    }
    for (byte[] whole : valid) {
      for (int length = 1; length < whole.length; length++) {
        assertThat(withRegistry.decode(Arrays.copyOf(whole, length))).as("prefix of %d bytes", length)
            .isInstanceOf(DecodeResult.Undecodable.class);
      }
    }
  }

  private void assertDecodesOrExplains(byte[] value) {
    assertDecodesOrExplains(codec, value);
  }

  private static void assertDecodesOrExplains(ProductEventCodec codec, byte[] value) {
    DecodeResult result = codec.decode(value);
    assertThat(result).isNotNull();
    if (result instanceof DecodeResult.Decoded decoded) {
      assertThat(decoded.event()).isNotNull();
    } else {
      assertThat(((DecodeResult.Undecodable) result).detail()).isNotBlank().doesNotContain("\n");
    }
  }

  private String detail(String json) {
    return detail(json.getBytes(StandardCharsets.UTF_8));
  }

  private String detail(byte[] value) {
    DecodeResult result = codec.decode(value);
    assertThat(result).isInstanceOf(DecodeResult.Undecodable.class);
    return ((DecodeResult.Undecodable) result).detail();
  }

  private interface BodyWriter {
    void write(BinaryEncoder body) throws IOException;
  }

  private byte[] singleObject(BodyWriter writer) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(codec.encodeSingleObject(Samples.deleted()), 0, 10);
    BinaryEncoder body = EncoderFactory.get().directBinaryEncoder(out, null);
    writer.write(body);
    body.flush();
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
