package io.catalogviews.events.codec;

import io.catalogviews.events.ProductEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;

/**
 * Writes a {@link ProductEvent} in the encodings of the input topic, with the current schema as the writer
 * schema. Thread-safe.
 */
final class ProductEventEncoder {
  private final Schema schema;
  private final BinaryMessageEncoder<ProductEvent> singleObject;
  private final DatumWriter<ProductEvent> datumWriter;
  // Building a JsonEncoder compiles a grammar from the schema; each thread keeps one and points it at a new buffer.
  private final ThreadLocal<JsonEncoder> jsonEncoders = new ThreadLocal<>();

  @SuppressWarnings("unchecked")
  ProductEventEncoder(SpecificData model, Schema schema) {
    this.schema = schema;
    this.singleObject = new BinaryMessageEncoder<>(model, schema);
    this.datumWriter = (DatumWriter<ProductEvent>) model.createDatumWriter(schema);
  }

  /** {@code 0xC3 0x01}, the 8-byte little-endian fingerprint of the schema, then the Avro binary body. */
  byte[] singleObject(ProductEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try {
      singleObject.encode(event, out);
    } catch (IOException | RuntimeException e) {
      throw cannotEncode(event, e);
    }
    return out.toByteArray();
  }

  /**
   * Confluent Schema Registry framing: {@code 0x00}, {@code schemaId} as 4 bytes big-endian, then the Avro binary
   * body. The caller vouches that {@code schemaId} is the current schema's id in its registry.
   */
  byte[] confluent(int schemaId, ProductEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    out.write(0x00);
    out.write(schemaId >>> 24);
    out.write(schemaId >>> 16);
    out.write(schemaId >>> 8);
    out.write(schemaId);
    try {
      BinaryEncoder body = EncoderFactory.get().directBinaryEncoder(out, null);
      datumWriter.write(event, body);
      body.flush();
    } catch (IOException | RuntimeException e) {
      throw cannotEncode(event, e);
    }
    return out.toByteArray();
  }

  /** Avro JSON on one line, union branches labelled by full name, as Avro's {@code JsonEncoder} writes it. */
  String json(ProductEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try {
      JsonEncoder encoder = jsonEncoders.get();
      if (encoder == null) {
        encoder = EncoderFactory.get().jsonEncoder(schema, out, false);
        jsonEncoders.set(encoder);
      } else {
        encoder.configure(out);
      }
      datumWriter.write(event, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      // A failed write can leave the encoder's grammar mid-record; a fresh one is cheaper than reasoning about it.
      jsonEncoders.remove();
      throw cannotEncode(event, e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException cannotEncode(ProductEvent event, Exception e) {
    String id = event == null ? "null event" : "event " + event.getEventId();
    return new IllegalArgumentException("cannot encode " + id + ": " + Details.cause(e), e);
  }
}
