package io.catalogviews.events.codec;

import io.catalogviews.events.registry.SchemaLookup;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;

/**
 * Recognises the encoding of one record value and decodes it into the reader schema, in the data model given
 * (generated classes through {@code SpecificData}, or {@code GenericRecord} through {@code GenericData}).
 *
 * <p>Detection, from the first bytes (CONTRACT.md, section 1):
 * <ul>
 *   <li>{@code 0xC3 0x01}: Avro single-object encoding, written with one of the known writer versions;</li>
 *   <li>{@code '{'} after optional JSON whitespace (and UTF-8 byte order mark): Avro JSON;</li>
 *   <li>{@code 0x00}: Confluent Schema Registry framing, decoded with the writer schema the registry holds under
 *       the id when a registry is configured; without one, named as such and refused (when at least 4 more bytes
 *       follow; shorter values are an unknown framing);</li>
 *   <li>zero bytes, only whitespace, or anything else: refused.</li>
 * </ul>
 * The encodings cannot be confused: a JSON text never starts with byte {@code 0xC3} or {@code 0x00}.
 *
 * <p>{@link ProductEventCodec} is this decoder over the generated classes; tests use it directly with a
 * {@code GenericData} model to read into schemas that have no generated classes (a future reader schema).
 * Thread-safe.
 */
final class EventValueDecoder<T> {
  private static final int CONFLUENT_HEADER_LENGTH = 5;
  private static final int BYTES_SHOWN = 4;

  private final SingleObjectDecoder<T> singleObject;
  private final AvroJsonDecoder<T> json;
  private final ConfluentFramedDecoder<T> confluent;

  /**
   * @param model the data model to decode with ({@code SpecificData} for generated classes)
   * @param readerSchema the schema every value is resolved to
   * @param writerVersions the writer schemas accepted in single-object values (and tried for JSON)
   * @throws IllegalArgumentException if the reader schema cannot fully read one of the writer versions
   */
  EventValueDecoder(GenericData model, Schema readerSchema, SchemaVersions writerVersions) {
    this(model, readerSchema, writerVersions, null);
  }

  /**
   * @param registry where the writer schemas of Confluent-framed values are looked up; null refuses that framing
   */
  EventValueDecoder(GenericData model, Schema readerSchema, SchemaVersions writerVersions, SchemaLookup registry) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(readerSchema, "readerSchema");
    Objects.requireNonNull(writerVersions, "writerVersions");
    requireReadable(readerSchema, writerVersions);
    this.singleObject = new SingleObjectDecoder<>(model, readerSchema, writerVersions);
    this.json = new AvroJsonDecoder<>(model, readerSchema, writerVersions);
    this.confluent = registry == null ? null : new ConfluentFramedDecoder<>(model, readerSchema, registry);
  }

  /**
   * Refuses writer versions the reader cannot fully read.
   *
   * <p>Why at construction: for a union branch the reader lacks, Avro's resolver does not fail, it falls back to a
   * structurally compatible branch. A newer producer's fifth change kind would be read as {@code ProductDeleted}
   * (an empty record reads anything), silently deleting the product. Avro's own compatibility check does flag
   * the missing branch, so it gates which writers are accepted at all.
   */
  private static void requireReadable(Schema readerSchema, SchemaVersions writerVersions) {
    for (SchemaVersions.Version version : writerVersions.all()) {
      SchemaCompatibility.SchemaPairCompatibility result =
          SchemaCompatibility.checkReaderWriterCompatibility(readerSchema, version.schema());
      if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        throw new IllegalArgumentException("writer schema version " + version.number() + " ("
            + version.fingerprintHex() + ") cannot be fully read with reader schema " + readerSchema.getFullName()
            + ": " + result.getResult().getIncompatibilities().stream()
                .map(i -> i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")").toList());
      }
    }
  }

  /** A {@code GenericRecord} decoder, for schemas without generated classes. */
  static EventValueDecoder<Object> generic(Schema readerSchema, SchemaVersions writerVersions) {
    return new EventValueDecoder<>(GenericData.get(), readerSchema, writerVersions);
  }

  /**
   * Decodes one record value.
   *
   * @param value the record value; null (a tombstone) is refused, since a tombstone is not an event
   * @throws UndecodableException saying why the value is not an event in an accepted encoding
   * @throws io.catalogviews.events.registry.SchemaRegistryUnavailableException when a Confluent-framed value's
   *     schema cannot be looked up now
   */
  DecodedValue<T> decode(byte[] value) throws UndecodableException {
    if (value == null) {
      throw new UndecodableException("null value: a tombstone is not an event and must be handled before decoding");
    }
    if (value.length == 0) {
      throw new UndecodableException("empty value (0 bytes); a tombstone must be a null value");
    }
    byte first = value[0];
    if (first == SingleObjectDecoder.MAGIC_0 && (value.length == 1 || value[1] == SingleObjectDecoder.MAGIC_1)) {
      return new DecodedValue<>(singleObject.decode(value), Encoding.SINGLE_OBJECT);
    }
    if (first == ConfluentFramedDecoder.MAGIC && confluent != null) {
      return new DecodedValue<>(confluent.decode(value), Encoding.CONFLUENT_SCHEMA_REGISTRY);
    }
    if (first == ConfluentFramedDecoder.MAGIC && value.length >= CONFLUENT_HEADER_LENGTH) {
      throw new UndecodableException("Confluent Schema Registry framing (magic byte 0x00, schema id "
          + confluentSchemaId(value) + ") is not accepted: no schema registry is configured"
          + " (--schema-registry-url); use Avro single-object encoding or Avro JSON");
    }
    int start = JsonText.firstSignificantByte(value);
    if (start == value.length) {
      throw new UndecodableException("blank value (" + value.length + " bytes of whitespace); a tombstone must be"
          + " a null value");
    }
    if (value[start] == '{') {
      return new DecodedValue<>(json.decode(value, start), Encoding.JSON);
    }
    throw new UndecodableException("unknown framing: first bytes " + Details.firstBytes(value, BYTES_SHOWN)
        + "; expected Avro single-object encoding (0xC3 0x01) or an Avro JSON object ('{')");
  }

  /** The big-endian schema id after Confluent's magic byte, unsigned so that it reads as the registry shows it. */
  private static long confluentSchemaId(byte[] value) {
    return ((value[1] & 0xFFL) << 24) | ((value[2] & 0xFFL) << 16) | ((value[3] & 0xFFL) << 8) | (value[4] & 0xFFL);
  }
}
