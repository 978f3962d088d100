package io.catalogviews.events.codec;

import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes an Avro single-object encoded value: {@code 0xC3 0x01}, the 8-byte little-endian CRC-64-AVRO fingerprint
 * of the writer schema's Parsing Canonical Form, then the Avro binary body, written with one of the known writer
 * versions and resolved to the reader schema.
 *
 * <p>Why not Avro's {@code BinaryMessageDecoder}: it reads the body through an unbuffered stream decoder that
 * allocates a string or collection of whatever length the body claims before reading it, so a 20-byte value
 * claiming a 2 GB string ends in {@code OutOfMemoryError}. Decoding from the byte array instead lets Avro check
 * every claimed length against the bytes actually left ("Attempted to read 2000000000 bytes, but only 5 bytes are
 * available"). Reading the header here also gives undecodable values a precise detail, and lets trailing bytes
 * (the mark of a body written with a different schema than its fingerprint says) be rejected.
 *
 * <p>Thread-safe: the datum readers are shared (Avro keeps their per-thread state in thread locals), and each
 * thread reuses its own {@link BinaryDecoder}.
 */
final class SingleObjectDecoder<T> {
  static final byte MAGIC_0 = (byte) 0xC3;
  static final byte MAGIC_1 = (byte) 0x01;
  static final int HEADER_LENGTH = 10;

  private record Writer<T>(SchemaVersions.Version version, DatumReader<T> reader) {}

  private final Schema readerSchema;
  private final List<Writer<T>> writers;
  private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();

  @SuppressWarnings("unchecked")
  SingleObjectDecoder(GenericData model, Schema readerSchema, SchemaVersions writerVersions) {
    this.readerSchema = readerSchema;
    this.writers = writerVersions.all().stream()
        .map(version -> new Writer<>(version, (DatumReader<T>) model.createDatumReader(version.schema(), readerSchema)))
        .toList();
  }

  /**
   * Decodes {@code value}, which starts with {@code 0xC3 0x01} or is a lone {@code 0xC3}.
   *
   * @throws UndecodableException with the reason, for a short header, an unknown fingerprint or a bad body
   */
  T decode(byte[] value) throws UndecodableException {
    if (value.length < HEADER_LENGTH) {
      throw new UndecodableException("truncated Avro single-object header: " + value.length + " of "
          + HEADER_LENGTH + " bytes (0xC3 0x01 and an 8-byte schema fingerprint)");
    }
    long fingerprint = fingerprintOf(value);
    Writer<T> writer = writerFor(fingerprint);
    if (writer == null) {
      throw new UndecodableException("unknown schema fingerprint " + Details.hexFingerprint(fingerprint)
          + " (not one of the " + writers.size() + " released versions)");
    }
    BinaryDecoder in = DecoderFactory.get()
        .binaryDecoder(value, HEADER_LENGTH, value.length - HEADER_LENGTH, decoders.get());
    decoders.set(in);
    try {
      T datum = writer.reader().read(null, in);
      if (!in.isEnd()) {
        int left = in.inputStream().available();
        throw new UndecodableException(mismatch(writer, left + (left == 1 ? " byte" : " bytes")
            + " left over after the end of the event"));
      }
      if (datum == null) {
        throw new UndecodableException(mismatch(writer, "the body decodes to nothing"));
      }
      return datum;
    } catch (IOException | RuntimeException e) {
      String field = FailurePaths.locate(writer.version().schema(), readerSchema,
              DecoderFactory.get().binaryDecoder(value, HEADER_LENGTH, value.length - HEADER_LENGTH, null))
          .map(path -> " (field " + path + ")").orElse("");
      throw new UndecodableException(mismatch(writer, Details.cause(e) + field));
    }
  }

  /** The 8 bytes after the magic, little-endian as the Avro specification requires. */
  static long fingerprintOf(byte[] value) {
    long fingerprint = 0;
    for (int i = HEADER_LENGTH - 1; i >= 2; i--) {
      fingerprint = (fingerprint << 8) | (value[i] & 0xFFL);
    }
    return fingerprint;
  }

  private Writer<T> writerFor(long fingerprint) {
    // A handful of versions: a linear scan beats hashing a boxed Long on every record.
    for (int i = 0; i < writers.size(); i++) {
      Writer<T> writer = writers.get(i);
      if (writer.version().fingerprint() == fingerprint) {
        return writer;
      }
    }
    return null;
  }

  private static String mismatch(Writer<?> writer, String cause) {
    return "Avro single-object body does not match schema version " + writer.version().number() + ": " + cause;
  }
}
