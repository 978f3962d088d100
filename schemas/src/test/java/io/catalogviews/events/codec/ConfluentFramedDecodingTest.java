package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParser;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfluentFramedDecodingTest {
  private static final int CURRENT = 1;
  private static final int OLDER_WITHOUT_RATING = 2;
  private static final int NEWER_FIELDS_ONLY = 3;
  private static final int NEW_CHANGE_KIND = 4;
  private static final int OTHER_NAMESPACE = 5;
  private static final int PROTOBUF = 6;

  private final InMemoryRegistry registry = new InMemoryRegistry()
      .with(CURRENT, SchemaVersions.current())
      .with(OLDER_WITHOUT_RATING, olderWithoutRating())
      .with(NEWER_FIELDS_ONLY, schema("ProductEvent-next-fields-only.avsc"))
      .with(NEW_CHANGE_KIND, schema("ProductEvent-next-with-new-change-kind.avsc"))
      .with(OTHER_NAMESPACE, SchemaVersions.current().toString().replace("io.catalogviews.events", "com.shop"), "AVRO")
      .with(PROTOBUF, "syntax = \"proto3\"; message ProductEvent {}", "PROTOBUF");
  private final ProductEventCodec codec = ProductEventCodec.withSchemaRegistry(registry);

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.catalogviews.events.codec.Samples#allKinds")
  void shouldDecodeEveryChangeKindWhenWrittenWithTheRegisteredCurrentSchema(String label, ProductEvent event) {
    assertThat(codec.decode(codec.encodeConfluent(CURRENT, event)))
        .isEqualTo(new DecodeResult.Decoded(event, Encoding.CONFLUENT_SCHEMA_REGISTRY));
  }

  @Test
  void shouldFillTheMissingFieldFromItsDefaultWhenWrittenWithAnOlderSchemaWithAFieldFewer() throws IOException {
    ProductEvent event = Samples.upsertRated();
    Schema older = olderWithoutRating();

    DecodeResult result = codec.decode(framed(OLDER_WITHOUT_RATING, older, event));

    ProductEvent expected = ProductEvent.newBuilder(event).build();
    ((io.catalogviews.events.ProductUpserted) expected.getChange()).getProduct().setRating(null);
    assertThat(result).isEqualTo(new DecodeResult.Decoded(expected, Encoding.CONFLUENT_SCHEMA_REGISTRY));
  }

  @Test
  void shouldSkipTheNewFieldsWhenWrittenWithANewerCompatibleSchema() throws IOException {
    ProductEvent event = Samples.priceChanged();

    assertThat(codec.decode(framed(NEWER_FIELDS_ONLY, schema("ProductEvent-next-fields-only.avsc"), event)))
        .isEqualTo(new DecodeResult.Decoded(event, Encoding.CONFLUENT_SCHEMA_REGISTRY));
  }

  @Test
  void shouldParseTheReferencedSchemasFirstWhenTheSchemaIsSplitAcrossSubjectsAsApicuriosSerializerRegistersIt() {
    registry.with(20, io.catalogviews.events.ProductUpserted.getClassSchema().getField("product").schema())
        .withReferences(21, "{\"type\":\"record\",\"name\":\"ProductUpserted\",\"namespace\":"
            + "\"io.catalogviews.events\",\"fields\":[{\"name\":\"product\",\"type\":\"Product\"}]}",
            List.of(ref("io.catalogviews.events.Product", 20)))
        .with(22, io.catalogviews.events.PriceChanged.getClassSchema())
        .with(23, io.catalogviews.events.StockChanged.getClassSchema())
        .with(24, io.catalogviews.events.ProductDeleted.getClassSchema());
    String main = "{\"type\":\"record\",\"name\":\"ProductEvent\",\"namespace\":\"io.catalogviews.events\","
        + "\"fields\":[{\"name\":\"eventId\",\"type\":\"string\"},{\"name\":\"productId\",\"type\":\"string\"},"
        + "{\"name\":\"version\",\"type\":\"long\"},{\"name\":\"occurredAt\",\"type\":{\"type\":\"long\","
        + "\"logicalType\":\"timestamp-millis\"}},{\"name\":\"change\",\"type\":[\"ProductUpserted\","
        + "\"PriceChanged\",\"StockChanged\",\"ProductDeleted\"]}]}";
    registry.withReferences(25, main, List.of(ref("io.catalogviews.events.ProductDeleted", 24),
        ref("io.catalogviews.events.PriceChanged", 22), ref("io.catalogviews.events.ProductUpserted", 21),
        ref("io.catalogviews.events.StockChanged", 23)));
    registry.withReferences(26, main, List.of(ref("io.catalogviews.events.ProductDeleted", 99)));

    for (ProductEvent event : List.of(Samples.upsertRated(), Samples.priceChanged(), Samples.deleted())) {
      assertThat(codec.decode(codec.encodeConfluent(25, event)))
          .isEqualTo(new DecodeResult.Decoded(event, Encoding.CONFLUENT_SCHEMA_REGISTRY));
    }
    assertThat(detail(codec.encodeConfluent(26, Samples.deleted()))).isEqualTo("schema id 26 in the schema registry"
        + " references io.catalogviews.events.ProductDeleted (subject id-99 version 1), which the registry does not"
        + " have (it answered: Subject 'id-99' not found.)");
  }

  private static io.catalogviews.events.registry.RegistryLookup.Reference ref(String name, int id) {
    return new io.catalogviews.events.registry.RegistryLookup.Reference(name, "id-" + id, 1);
  }

  @Test
  void shouldAskTheRegistryOncePerIdWhenManyValuesCarryIt() {
    for (int i = 0; i < 100; i++) {
      assertThat(codec.decode(codec.encodeConfluent(CURRENT, Samples.stockChanged())))
          .isInstanceOf(DecodeResult.Decoded.class);
      detail(codec.encodeConfluent(NEW_CHANGE_KIND, Samples.stockChanged()));
    }

    assertThat(registry.lookups()).isEqualTo(2);
  }

  @Test
  void shouldNameTheIdAndTheRegistrysAnswerWhenTheIdIsUnknown() {
    String detail = detail(codec.encodeConfluent(999, Samples.deleted()));

    assertThat(detail).isEqualTo("schema id 999 is not in the schema registry (it answered: No content with ID"
        + " '999' was found.)");
    detail(codec.encodeConfluent(999, Samples.deleted()));
    assertThat(registry.lookups()).as("an unknown id is remembered for a while").isEqualTo(1);
  }

  @Test
  void shouldNameTheMissingUnionBranchWhenTheRegisteredSchemaHasAChangeKindTheReaderLacks() {
    assertThat(detail(codec.encodeConfluent(NEW_CHANGE_KIND, Samples.deleted())))
        .startsWith("schema id 4 in the schema registry cannot be resolved to the current"
            + " io.catalogviews.events.ProductEvent: ")
        .contains("MISSING_UNION_BRANCH");
  }

  @Test
  void shouldNameBothFullNamesWhenTheRegisteredSchemaHasAnotherNamespace() {
    assertThat(detail(codec.encodeConfluent(OTHER_NAMESPACE, Samples.deleted())))
        .isEqualTo("schema id 5 in the schema registry is record com.shop.ProductEvent, not"
            + " io.catalogviews.events.ProductEvent (Avro resolution matches records by full name)");
  }

  @Test
  void shouldRefuseWhenTheRegisteredSchemaIsNotAvro() {
    assertThat(detail(codec.encodeConfluent(PROTOBUF, Samples.deleted())))
        .isEqualTo("schema id 6 is a PROTOBUF schema in the schema registry, not an Avro"
            + " io.catalogviews.events.ProductEvent");
  }

  @Test
  void shouldRefuseWithoutAskingWhenTheIdIsNotPositive() {
    assertThat(detail(new byte[] {0, 0, 0, 0, 0, 2})).isEqualTo("Confluent Schema Registry framing with schema id 0:"
        + " registry schema ids are positive");
    assertThat(detail(new byte[] {0, -1, -1, -1, -1, 2})).startsWith("Confluent Schema Registry framing with schema"
        + " id -1:");
    assertThat(registry.lookups()).isZero();
  }

  @Test
  void shouldSayTheHeaderIsTruncatedWhenFewerThanFiveBytesArePresent() {
    assertThat(detail(new byte[] {0})).isEqualTo("truncated Confluent Schema Registry header: 1 of 5 bytes (magic"
        + " byte 0x00 and a 4-byte big-endian schema id)");
    assertThat(detail(new byte[] {0, 0, 0, 1})).startsWith("truncated Confluent Schema Registry header: 4 of 5");
  }

  @Test
  void shouldNameTheIdAndFieldWhenTheBodyIsTruncatedOrTooLong() {
    byte[] value = codec.encodeConfluent(CURRENT, Samples.upsertRated());

    assertThat(detail(Arrays.copyOf(value, 5))).isEqualTo("Confluent Schema Registry body does not match schema id"
        + " 1: unexpected end of data (the value is truncated) (field eventId)");
    assertThat(detail(Arrays.copyOf(value, value.length + 2))).isEqualTo("Confluent Schema Registry body does not"
        + " match schema id 1: 2 bytes left over after the end of the event");
  }

  @Test
  void shouldThrowWithoutCachingWhenTheRegistryGivesNoAnswer() {
    registry.down(true);
    byte[] value = codec.encodeConfluent(CURRENT, Samples.deleted());

    assertThatThrownBy(() -> codec.decode(value)).isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("schema id 1").hasMessageContaining("connection refused")
        .isInstanceOf(org.apache.kafka.common.KafkaException.class);

    registry.down(false);
    assertThat(codec.decode(value)).isInstanceOf(DecodeResult.Decoded.class);
  }

  @Test
  void shouldStillRefuseTheFramingWhenNoRegistryIsConfigured() {
    assertThat(ProductEventCodec.create().decode(codec.encodeConfluent(CURRENT, Samples.deleted())))
        .isEqualTo(new DecodeResult.Undecodable("Confluent Schema Registry framing (magic byte 0x00, schema id 1) is"
            + " not accepted: no schema registry is configured (--schema-registry-url); use Avro single-object"
            + " encoding or Avro JSON"));
  }

  @Test
  void shouldDecodeTheOtherEncodingsAsBeforeWhenARegistryIsConfigured() {
    ProductEvent event = Samples.upsertRated();

    assertThat(codec.decode(codec.encodeSingleObject(event)))
        .isEqualTo(new DecodeResult.Decoded(event, Encoding.SINGLE_OBJECT));
    assertThat(codec.decode(codec.encodeJson(event).getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new DecodeResult.Decoded(event, Encoding.JSON));
    assertThat(registry.lookups()).isZero();
  }

  /** The current schema without {@code Product.rating} (which has a default): an older producer's schema. */
  static Schema olderWithoutRating() {
    try {
      ObjectMapper json = new ObjectMapper();
      ObjectNode root = (ObjectNode) json.readTree(SchemaVersions.current().toString());
      ObjectNode upserted = (ObjectNode) ((ArrayNode) root.withArray("fields").get(4).get("type")).get(0);
      ArrayNode productFields = (ArrayNode) upserted.withArray("fields").get(0).get("type").get("fields");
      for (int i = 0; i < productFields.size(); i++) {
        if (productFields.get(i).get("name").asText().equals("rating")) {
          productFields.remove(i);
        }
      }
      return new SchemaParser().parse(json.writeValueAsString(root)).mainSchema();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Schema schema(String file) {
    try (InputStream in = ConfluentFramedDecodingTest.class.getClassLoader()
        .getResourceAsStream("io/catalogviews/events/evolution/" + file)) {
      return new SchemaParser().parse(in, StandardCharsets.UTF_8).mainSchema();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] framed(int id, Schema writer, ProductEvent event) throws IOException {
    GenericRecord record = (GenericRecord) SchemaEvolutionTest.toGeneric(writer, event);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
    BinaryEncoder body = EncoderFactory.get().directBinaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(writer).write(record, body);
    body.flush();
    return out.toByteArray();
  }

  private String detail(byte[] value) {
    DecodeResult result = codec.decode(value);
    assertThat(result).isInstanceOf(DecodeResult.Undecodable.class);
    return ((DecodeResult.Undecodable) result).detail();
  }
}
