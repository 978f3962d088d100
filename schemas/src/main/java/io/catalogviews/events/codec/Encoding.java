package io.catalogviews.events.codec;

/** The two encodings of a {@code ProductEvent} record value accepted on the input topic (CONTRACT.md, section 1). */
public enum Encoding {
  /** Avro single-object encoding: {@code 0xC3 0x01}, 8-byte little-endian schema fingerprint, Avro binary body. */
  SINGLE_OBJECT,
  /** Avro JSON encoding of the {@code ProductEvent} schema, UTF-8. */
  JSON
}
