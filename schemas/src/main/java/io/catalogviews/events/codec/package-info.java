/**
 * Decoding and encoding of the values of the input topic {@code catalog.product-events} (CONTRACT.md, section 1).
 *
 * <p>A record value is one {@link io.catalogviews.events.ProductEvent} in one of these encodings, detected per
 * record:
 * <ol>
 *   <li>Avro single-object encoding: bytes {@code 0xC3 0x01}, the 8-byte little-endian CRC-64-AVRO fingerprint of
 *       the writer schema's Parsing Canonical Form, then the Avro binary body. Every released schema version
 *       ({@link io.catalogviews.events.codec.SchemaVersions}) is accepted and resolved to the current reader
 *       schema.</li>
 *   <li>Avro JSON encoding, as written by Avro's {@code JsonEncoder}, UTF-8 (union branches labelled by full name,
 *       e.g. {@code {"io.catalogviews.events.PriceChanged": {...}}}).</li>
 *   <li>With a schema registry configured (CONTRACT.md section 4, "A third encoding"): the Confluent Schema
 *       Registry framing, byte {@code 0x00}, a 4-byte big-endian schema id and the Avro binary body written with the
 *       schema the registry holds under that id ({@link io.catalogviews.events.registry.SchemaRegistryClient}),
 *       resolved to the current reader schema.</li>
 * </ol>
 * Anything else (a zero-byte value, Confluent framing without a registry or with an id the registry does not know or
 * whose schema does not resolve, an unknown fingerprint, a body that does not match its schema) is {@linkplain io.catalogviews.events.codec.DecodeResult.Undecodable undecodable}, with a
 * detail sentence naming the reason. A null value is a tombstone and is handled by the caller before decoding.
 *
 * <p>Entry points: {@link io.catalogviews.events.codec.ProductEventCodec} and, for building events,
 * {@link io.catalogviews.events.codec.ProductEvents}.
 */
package io.catalogviews.events.codec;
