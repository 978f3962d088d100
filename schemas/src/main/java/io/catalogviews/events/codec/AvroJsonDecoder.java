package io.catalogviews.events.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.JsonDecoder;

/**
 * Decodes an Avro JSON encoded value (as written by Avro's {@code JsonEncoder}; UTF-8; leading whitespace allowed;
 * nothing but whitespace after the object) into the reader schema.
 *
 * <p>Avro JSON carries no schema identifier, so the value is read as written with the reader schema itself first,
 * then, only if that does not fit, with each older known writer version, newest first, resolved to the reader
 * schema: a console producer that still writes an older version's JSON keeps working after the schema moves on.
 * The detail of a value that fits none is the one for the reader schema, the version a person should write.
 *
 * <p>Thread-safe: each thread reuses its own {@link JsonDecoder} per candidate schema, because building one
 * compiles a grammar from the schema, which is far more work than reading a small event.
 */
final class AvroJsonDecoder<T> {
  private static final Pattern SOURCE_LOCATION =
      Pattern.compile("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]");

  private record Candidate<T>(Schema writerSchema, DatumReader<T> reader, ThreadLocal<JsonDecoder> decoders) {}

  private final Schema readerSchema;
  private final String recordName;
  private final List<Candidate<T>> candidates;

  @SuppressWarnings("unchecked")
  AvroJsonDecoder(GenericData model, Schema readerSchema, SchemaVersions writerVersions) {
    this.readerSchema = readerSchema;
    this.recordName = readerSchema.getName();
    List<Schema> schemas = new ArrayList<>();
    schemas.add(readerSchema);
    List<SchemaVersions.Version> versions = writerVersions.all();
    for (int i = versions.size() - 1; i >= 0; i--) {
      schemas.add(versions.get(i).schema());
    }
    Set<Long> seen = new HashSet<>();
    List<Candidate<T>> list = new ArrayList<>();
    for (Schema schema : schemas) {
      if (seen.add(SchemaVersions.fingerprint(schema))) {
        list.add(new Candidate<>(schema, (DatumReader<T>) model.createDatumReader(schema, readerSchema),
            new ThreadLocal<>()));
      }
    }
    this.candidates = List.copyOf(list);
  }

  /**
   * Decodes {@code value}, whose first significant byte, at {@code start}, is {@code '{'}.
   *
   * @throws UndecodableException with the reason: bad UTF-8, trailing content, malformed JSON or a schema mismatch
   */
  T decode(byte[] value, int start) throws UndecodableException {
    String text = JsonText.utf8(value, start);
    int end = JsonText.endOfObject(text, 0);
    if (end < 0) {
      // Checked here because Avro's JsonDecoder stops once it has read every field and never looks for the
      // closing braces: a truncated value would otherwise decode.
      throw new UndecodableException("Avro JSON is not well-formed JSON: the text ends before the event object"
          + " is closed");
    }
    int extra = JsonText.firstNonWhitespace(text, end);
    if (extra >= 0) {
      throw new UndecodableException("Avro JSON has content after the end of the event object, at character "
          + (extra + 1) + ": \"" + Details.oneLine(excerpt(text, extra)) + "\"; a record value holds one event");
    }
    UndecodableException first = null;
    for (Candidate<T> candidate : candidates) {
      try {
        return read(candidate, text);
      } catch (UndecodableException e) {
        if (first == null) {
          first = e;
        }
      } catch (NotJsonException e) {
        // Malformed JSON is malformed for every schema: trying the others would only waste time.
        throw new UndecodableException(
            "Avro JSON is not well-formed JSON: " + withoutSource(Details.cause(e.getCause())));
      }
    }
    throw first;
  }

  private T read(Candidate<T> candidate, String text) throws UndecodableException, NotJsonException {
    try {
      JsonDecoder in = candidate.decoders().get();
      if (in == null) {
        in = DecoderFactory.get().jsonDecoder(candidate.writerSchema(), text);
        candidate.decoders().set(in);
      } else {
        in.configure(text);
      }
      T datum = candidate.reader().read(null, in);
      if (datum == null) {
        throw new UndecodableException(mismatch("the JSON decodes to nothing", null));
      }
      return datum;
    } catch (IOException e) {
      // With text input the only I/O is the JSON parser's, so an IOException is a syntax error; Avro reports a
      // value that does not fit the schema as an AvroTypeException (a RuntimeException) instead.
      throw new NotJsonException(e);
    } catch (RuntimeException e) {
      throw new UndecodableException(mismatch(Details.cause(e), failurePath(candidate, text)));
    }
  }

  private String mismatch(String cause, String fieldPath) {
    // The mistake people make most when writing Avro JSON by hand is a bare value where a union is expected
    // (the optional rating, the change); Avro's message alone does not tell them what to write instead.
    String hint = cause.contains("start-union")
        ? " (a non-null union value is written as {\"<branch type>\": value}, e.g. \"rating\": {\"float\": 4.5})"
        : "";
    String field = fieldPath == null ? "" : " (field " + fieldPath + ")";
    return "Avro JSON does not match the " + recordName + " schema: " + cause + field + hint;
  }

  private String failurePath(Candidate<T> candidate, String text) {
    try {
      return FailurePaths.locate(candidate.writerSchema(), readerSchema,
          DecoderFactory.get().jsonDecoder(candidate.writerSchema(), text)).orElse(null);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Jackson's location without its "[Source: REDACTED ...]" preamble, which says nothing to the reader. */
  private static String withoutSource(String message) {
    return SOURCE_LOCATION.matcher(message).replaceAll("(line $1, column $2)");
  }

  private static String excerpt(String text, int from) {
    int to = Math.min(text.length(), from + 40);
    return text.substring(from, to) + (to < text.length() ? "…" : "");
  }

  /** Marks a syntax error, as opposed to well-formed JSON that does not fit a schema. */
  private static final class NotJsonException extends Exception {
    private static final long serialVersionUID = 1L;

    NotJsonException(Throwable cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }
}
