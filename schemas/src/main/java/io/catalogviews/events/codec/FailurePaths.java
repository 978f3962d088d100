package io.catalogviews.events.codec;

import java.io.IOException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.ResolvingDecoder;

/**
 * Finds which field a decoding failure happened in ({@code change.product.stock}), by reading the value again.
 *
 * <p>Why: Avro's messages name the expected type but not the field ("Expected int. Got VALUE_NUMBER_FLOAT"), which
 * leaves a person who wrote an event by hand guessing. The readers on the hot path are Avro's fast readers, which
 * cannot report a field; so, only once a value has failed, it is read again with the classic field-by-field reader,
 * which can. Failures are rare, so the second read costs nothing that matters.
 */
final class FailurePaths {
  // Its own model, so that turning the fast reader off does not touch the shared GenericData.get().
  private static final GenericData CLASSIC_READER_MODEL = new GenericData().setFastReaderEnabled(false);

  private FailurePaths() {}

  /**
   * Re-reads the value in {@code in} (a fresh decoder over the failed value) and returns the dot-separated reader
   * field names leading to the failure, or empty if the classic reader fails outside any field or does not fail.
   */
  static Optional<String> locate(Schema writerSchema, Schema readerSchema, Decoder in) {
    try {
      new Reader(writerSchema, readerSchema).read(null, in);
      return Optional.empty();
    } catch (Located located) {
      return Optional.of(located.path);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static final class Located extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String path;

    Located(String path) {
      super(path, null, false, false);
      this.path = path;
    }
  }

  private static final class Reader extends GenericDatumReader<Object> {
    Reader(Schema writerSchema, Schema readerSchema) {
      super(writerSchema, readerSchema, CLASSIC_READER_MODEL);
    }

    @Override
    protected void readField(Object record, Schema.Field field, Object oldDatum, ResolvingDecoder in, Object state)
        throws IOException {
      try {
        super.readField(record, field, oldDatum, in, state);
      } catch (Located inner) {
        throw new Located(field.name() + "." + inner.path);
      } catch (IOException | RuntimeException e) {
        throw new Located(field.name());
      }
    }
  }
}
