package io.catalogviews.events.codec;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.registry.SchemaLookup;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * Reads and writes the values of the input topic {@code catalog.product-events} (CONTRACT.md, section 1).
 *
 * <p>{@link #decode(byte[])} detects the encoding of each value: Avro single-object encoding ({@code 0xC3 0x01},
 * 8-byte little-endian CRC-64-AVRO fingerprint of the writer schema's Parsing Canonical Form, Avro binary body),
 * written with any released schema version and resolved to the current one; or Avro JSON (UTF-8, as Avro's
 * {@code JsonEncoder} writes it); and, when built {@link #withSchemaRegistry with a schema registry}, the
 * Confluent Schema Registry framing ({@code 0x00}, 4-byte big-endian schema id, Avro binary body written with the
 * schema the registry holds under that id). Everything else is {@link DecodeResult.Undecodable} with a detail
 * naming the reason: a zero-byte value (not a tombstone), Confluent framing without a registry, an unknown
 * fingerprint or schema id, a body or JSON text that does not match the schema. Decoding never yields a null event
 * and throws only {@link SchemaRegistryUnavailableException}, when the registry gives no answer (see
 * {@link EventDecoder#decode}).
 *
 * <p>The encoders write with the current schema, for producers (the CLI's {@code publish} and {@code demo}) and
 * tests.
 *
 * <p>Thread-safe; create one and share it.
 */
public final class ProductEventCodec implements EventDecoder {
  static {
    EventClassTrust.install();
  }

  private final SchemaVersions writerVersions;
  private final EventValueDecoder<ProductEvent> decoder;
  private final ProductEventEncoder encoder;

  /**
   * A codec reading into the generated classes from any of {@code writerSchemas}; tests use it to stand in for a
   * different set of released versions (for example one that includes a newer producer's schema).
   *
   * <p>The reader schema is always {@link SchemaVersions#current()}: values are decoded into the generated
   * classes, which exist only for it. To read into another reader schema, use {@link EventValueDecoder#generic}.
   *
   * @throws IllegalArgumentException if the list is empty or the current schema cannot fully read one of them
   */
  ProductEventCodec(List<Schema> writerSchemas) {
    this(SchemaVersions.of(Objects.requireNonNull(writerSchemas, "writerSchemas")));
  }

  private ProductEventCodec(SchemaVersions writerVersions) {
    this(writerVersions, null);
  }

  private ProductEventCodec(SchemaVersions writerVersions, SchemaLookup registry) {
    SpecificData model = SpecificData.getForClass(ProductEvent.class);
    this.writerVersions = writerVersions;
    this.decoder = new EventValueDecoder<>(model, SchemaVersions.current(), writerVersions, registry);
    this.encoder = new ProductEventEncoder(model, SchemaVersions.current());
  }

  /** A codec accepting every released schema version ({@link SchemaVersions#released()}). */
  public static ProductEventCodec create() {
    return new ProductEventCodec(SchemaVersions.released());
  }

  /**
   * A codec accepting every released schema version and, in addition, the Confluent Schema Registry framing, with
   * writer schemas looked up in {@code registry} (cached per id: ids are immutable). Share one: the cache is
   * per codec.
   */
  public static ProductEventCodec withSchemaRegistry(SchemaLookup registry) {
    return new ProductEventCodec(SchemaVersions.released(), java.util.Objects.requireNonNull(registry, "registry"));
  }

  /** The writer schema versions this codec accepts in single-object values. */
  public SchemaVersions writerVersions() {
    return writerVersions;
  }

  /**
   * Decodes one record value. A null value is a tombstone, which callers handle before decoding; given one anyway,
   * this answers {@link DecodeResult.Undecodable} rather than throwing.
   *
   * @return the event and its encoding, or the precise reason the value is undecodable; never null
   * @throws SchemaRegistryUnavailableException only for a Confluent-framed value whose schema the registry cannot
   *     be asked about now (never for a bad value)
   */
  @Override
  public DecodeResult decode(byte[] value) {
    try {
      DecodedValue<ProductEvent> decoded = decoder.decode(value);
      return new DecodeResult.Decoded(decoded.value(), decoded.encoding());
    } catch (UndecodableException e) {
      return new DecodeResult.Undecodable(e.getMessage());
    } catch (SchemaRegistryUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      // The decoders turn every failure they know of into a detail; this is the promise that a bad record can
      // never stop the stream thread, kept even for a failure nobody foresaw.
      return new DecodeResult.Undecodable("cannot decode the value: " + Details.cause(e));
    }
  }

  /**
   * Avro single-object encoding of {@code event} with the current schema.
   *
   * @throws IllegalArgumentException if the event cannot be encoded (a required field is null)
   */
  public byte[] encodeSingleObject(ProductEvent event) {
    return encoder.singleObject(event);
  }

  /**
   * Confluent Schema Registry framing of {@code event}: {@code 0x00}, {@code schemaId} (4 bytes, big-endian), the
   * Avro binary body written with the current schema, which must be what the registry holds under {@code schemaId}.
   *
   * @throws IllegalArgumentException if the event cannot be encoded (a required field is null)
   */
  public byte[] encodeConfluent(int schemaId, ProductEvent event) {
    return encoder.confluent(schemaId, event);
  }

  /**
   * Avro JSON encoding of {@code event} with the current schema, on one line (no line breaks), as accepted by
   * {@link #decode(byte[])} and by the CLI's {@code publish}.
   *
   * @throws IllegalArgumentException if the event cannot be encoded (a required field is null)
   */
  public String encodeJson(ProductEvent event) {
    return encoder.json(event);
  }
}
