package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.events.ProductEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParser;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaEvolutionTest {
  /** Test-only next versions: new fields with defaults, with and without a fifth change kind. */
  private static final String NEXT_WITH_NEW_KIND =
      "io/catalogviews/events/evolution/ProductEvent-next-with-new-change-kind.avsc";
  private static final String NEXT_FIELDS_ONLY = "io/catalogviews/events/evolution/ProductEvent-next-fields-only.avsc";

  private final ProductEventCodec codec = ProductEventCodec.create();

  static Stream<Arguments> everyReleasedVersionAndChangeKind() {
    return SchemaVersions.released().all().stream().flatMap(version -> Samples.allKinds()
        .map(sample -> Arguments.of("v" + version.number() + ", " + sample.get()[0], version, sample.get()[1])));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyReleasedVersionAndChangeKind")
  void shouldDecodeIntoTheCurrentClassesWhenAGenericRecordIsWrittenWithAReleasedVersion(String label,
      SchemaVersions.Version version, ProductEvent expected) throws IOException {
    GenericRecord written = (GenericRecord) toGeneric(version.schema(), expected);

    assertThat(codec.decode(singleObject(version.schema(), written)))
        .isEqualTo(new DecodeResult.Decoded(expected, Encoding.SINGLE_OBJECT));
    assertThat(codec.decode(json(version.schema(), written)))
        .isEqualTo(new DecodeResult.Decoded(expected, Encoding.JSON));
  }

  @Test
  void shouldDecodeAVersionOneEventWhenTheReaderMovesOnToANewerSchema() throws IOException {
    Schema next = schema(NEXT_WITH_NEW_KIND);
    EventValueDecoder<Object> nextReader = EventValueDecoder.generic(next, SchemaVersions.released());
    ProductEvent event = Samples.upsertRated();

    for (byte[] value : List.of(codec.encodeSingleObject(event),
        codec.encodeJson(event).getBytes(StandardCharsets.UTF_8))) {
      GenericRecord read = (GenericRecord) decodeValue(nextReader, value);

      assertThat(read.getSchema()).isEqualTo(next);
      assertThat(read.get("eventId")).hasToString("e-1");
      assertThat(read.get("version")).isEqualTo(7L);
      assertThat(read.get("occurredAt")).isEqualTo(Samples.OCCURRED_AT.toEpochMilli());
      assertThat(read.get("source")).as("new field, filled from its default").isNull();
      GenericRecord product = (GenericRecord) ((GenericRecord) read.get("change")).get("product");
      assertThat(product.get("gtin")).as("new field, filled from its default").hasToString("");
      assertThat(product.get("rating")).isEqualTo(4.5f);
      assertThat(product.get("brand")).hasToString("acme");
    }
  }

  @Test
  void shouldDecodeANewerProducersEventIntoTheCurrentClassesWhenItsSchemaIsAWriterVersion() throws IOException {
    Schema next = schema(NEXT_FIELDS_ONLY);
    ProductEventCodec codecKnowingNext = new ProductEventCodec(List.of(SchemaVersions.current(), next));
    ProductEvent expected = Samples.upsertRated();
    GenericRecord written = (GenericRecord) toGeneric(next, expected);
    written.put("source", "erp");
    ((GenericRecord) ((GenericRecord) written.get("change")).get("product")).put("gtin", "4006381333931");
    byte[] value = singleObject(next, written);

    assertThat(codecKnowingNext.decode(value)).isEqualTo(new DecodeResult.Decoded(expected, Encoding.SINGLE_OBJECT));
    assertThat(codecKnowingNext.decode(json(next, written)))
        .isEqualTo(new DecodeResult.Decoded(expected, Encoding.JSON));
    assertThat(codec.decode(value)).isEqualTo(new DecodeResult.Undecodable("unknown schema fingerprint "
        + Details.hexFingerprint(SchemaVersions.fingerprint(next)) + " (not one of "
        + "the " + SchemaVersions.released().size() + " released versions)"));
  }

  @Test
  void shouldRefuseAWriterVersionWhenItHasAChangeKindTheReaderDoesNotKnow() throws IOException {
    // Avro would otherwise resolve the unknown branch to a structurally compatible one: an empty record
    // (ProductDeleted) reads anything, so a new change kind would silently delete products.
    Schema next = schema(NEXT_WITH_NEW_KIND);

    assertThatThrownBy(() -> new ProductEventCodec(List.of(SchemaVersions.current(), next)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("writer schema version 2 (" + Details.hexFingerprint(SchemaVersions.fingerprint(next))
            + ") cannot be fully read with reader schema io.catalogviews.events.ProductEvent: ")
        .hasMessageContaining("MISSING_UNION_BRANCH");
  }

  private static Object decodeValue(EventValueDecoder<Object> decoder, byte[] value) {
    try {
      return decoder.decode(value).value();
    } catch (UndecodableException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  private static Schema schema(String resource) throws IOException {
    try (InputStream in = SchemaEvolutionTest.class.getClassLoader().getResourceAsStream(resource)) {
      return new SchemaParser().parse(in, StandardCharsets.UTF_8).mainSchema();
    }
  }

  /**
   * {@code value} (generated classes) as plain Avro data of {@code schema}, matched field by field by name; fields
   * the generated classes do not have get their defaults. Timestamps become longs, as GenericData has no logical
   * type conversions.
   */
  static Object toGeneric(Schema schema, Object value) {
    switch (schema.getType()) {
      case RECORD -> {
        SpecificRecord record = (SpecificRecord) value;
        GenericRecordBuilder builder = new GenericRecordBuilder(schema);
        for (Schema.Field field : schema.getFields()) {
          Schema.Field known = record.getSchema().getField(field.name());
          if (known != null) {
            builder.set(field, toGeneric(field.schema(), record.get(known.pos())));
          }
        }
        return builder.build();
      }
      case UNION -> {
        if (value == null) {
          return null;
        }
        for (Schema branch : schema.getTypes()) {
          boolean matches = value instanceof SpecificRecord record
              ? branch.getType() == Schema.Type.RECORD && branch.getFullName().equals(record.getSchema().getFullName())
              : branch.getType() != Schema.Type.NULL;
          if (matches) {
            return toGeneric(branch, value);
          }
        }
        throw new IllegalArgumentException("no branch of " + schema + " for " + value);
      }
      case LONG -> {
        return value instanceof Instant instant ? instant.toEpochMilli() : value;
      }
      default -> {
        return value;
      }
    }
  }

  private static byte[] singleObject(Schema schema, GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new BinaryMessageEncoder<GenericRecord>(GenericData.get(), schema).encode(record, out);
    return out.toByteArray();
  }

  private static byte[] json(Schema schema, GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, out);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
