package io.catalogviews.events.codec;

/**
 * The encodings of a {@code ProductEvent} record value accepted on the input topic (CONTRACT.md, section 1, and the
 * third encoding of section 4).
 */
public enum Encoding {
  /** Avro single-object encoding: {@code 0xC3 0x01}, 8-byte little-endian schema fingerprint, Avro binary body. */
  SINGLE_OBJECT,
  /** Avro JSON encoding of the {@code ProductEvent} schema, UTF-8. */
  JSON,
  /**
   * Confluent Schema Registry framing: {@code 0x00}, 4-byte big-endian schema id, Avro binary body written with the
   * schema the registry holds under that id. Accepted only when a schema registry is configured.
   */
  CONFLUENT_SCHEMA_REGISTRY
}
