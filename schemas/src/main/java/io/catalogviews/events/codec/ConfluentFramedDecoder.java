package io.catalogviews.events.codec;

import io.catalogviews.events.registry.RegistryLookup;
import io.catalogviews.events.registry.SchemaLookup;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaParser;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes a value in the Confluent Schema Registry framing: byte {@code 0x00}, a 4-byte big-endian schema id, then
 * the Avro binary body written with the schema the registry holds under that id, resolved to the reader schema.
 *
 * <p>What an id becomes, decided once and cached:
 * <ul>
 *   <li>a registered Avro {@code ProductEvent} schema the reader can fully read (same full names, Avro resolution
 *       rules, no union branch the reader lacks): a datum reader from it to the reader schema, kept forever, since
 *       registry ids are immutable;</li>
 *   <li>a registered schema that is not that (another full name, another schema type, an incompatible change):
 *       undecodable, also kept forever, for the same reason;</li>
 *   <li>an id the registry does not know (404, error 40403): undecodable, remembered for {@value #UNKNOWN_ID_MILLIS}
 *       ms only (a producer may register it a moment later through another registry node), and at most
 *       {@value #MAX_UNKNOWN_IDS} of them, so that a flood of garbage ids costs one request per id and a bounded
 *       amount of memory;</li>
 *   <li>no answer from the registry: {@link SchemaRegistryUnavailableException}, thrown through: the value is not
 *       bad, it must be read again later.</li>
 * </ul>
 * Ids 0 and below are refused without asking: registries number schemas from 1. A schema with references (named
 * types registered under subjects of their own, as Apicurio's serializers register every nested record) is parsed
 * after the schemas it references, depth first, at most {@value #MAX_REFERENCES} of them.
 *
 * <p>The body is read from the byte array, so every length it claims is checked against the bytes present (see
 * {@link SingleObjectDecoder} for why that matters), and left-over bytes are refused. Thread-safe.
 */
final class ConfluentFramedDecoder<T> {
  static final byte MAGIC = 0x00;
  static final int HEADER_LENGTH = 5;
  static final long UNKNOWN_ID_MILLIS = 60_000;
  static final int MAX_UNKNOWN_IDS = 1_000;
  static final int MAX_REFERENCES = 100;
  private static final int MAX_INCOMPATIBILITIES_SHOWN = 3;

  private sealed interface Writer<T> {}

  private record Readable<T>(Schema schema, DatumReader<T> reader) implements Writer<T> {}

  private record Refused<T>(String detail) implements Writer<T> {}

  private record Unknown(String detail, long untilMillis) {}

  private final GenericData model;
  private final Schema readerSchema;
  private final SchemaLookup registry;
  private final Map<Integer, Writer<T>> writers = new ConcurrentHashMap<>();
  private final Map<Integer, Unknown> unknown = new ConcurrentHashMap<>();
  private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();

  ConfluentFramedDecoder(GenericData model, Schema readerSchema, SchemaLookup registry) {
    this.model = model;
    this.readerSchema = readerSchema;
    this.registry = registry;
  }

  /**
   * Decodes {@code value}, which starts with {@code 0x00}.
   *
   * @throws UndecodableException naming the schema id and the reason
   * @throws SchemaRegistryUnavailableException when the registry gives no answer about the id
   */
  T decode(byte[] value) throws UndecodableException {
    if (value.length < HEADER_LENGTH) {
      throw new UndecodableException("truncated Confluent Schema Registry header: " + value.length + " of "
          + HEADER_LENGTH + " bytes (magic byte 0x00 and a 4-byte big-endian schema id)");
    }
    int id = schemaId(value);
    if (id <= 0) {
      throw new UndecodableException("Confluent Schema Registry framing with schema id " + id
          + ": registry schema ids are positive");
    }
    Readable<T> writer = readable(id);
    BinaryDecoder in = DecoderFactory.get()
        .binaryDecoder(value, HEADER_LENGTH, value.length - HEADER_LENGTH, decoders.get());
    decoders.set(in);
    try {
      T datum = writer.reader().read(null, in);
      if (!in.isEnd()) {
        int left = in.inputStream().available();
        throw new UndecodableException(mismatch(id, left + (left == 1 ? " byte" : " bytes")
            + " left over after the end of the event"));
      }
      if (datum == null) {
        throw new UndecodableException(mismatch(id, "the body decodes to nothing"));
      }
      return datum;
    } catch (IOException | RuntimeException e) {
      String field = FailurePaths.locate(writer.schema(), readerSchema,
              DecoderFactory.get().binaryDecoder(value, HEADER_LENGTH, value.length - HEADER_LENGTH, null))
          .map(path -> " (field " + path + ")").orElse("");
      throw new UndecodableException(mismatch(id, Details.cause(e) + field));
    }
  }

  /** The big-endian id after the magic byte, signed as Confluent's clients read it. */
  static int schemaId(byte[] value) {
    return ((value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
  }

  private Readable<T> readable(int id) throws UndecodableException {
    Writer<T> writer = writers.get(id);
    if (writer == null) {
      writer = lookUp(id);
    }
    if (writer instanceof Refused<T> refused) {
      throw new UndecodableException(refused.detail());
    }
    return (Readable<T>) writer;
  }

  private Writer<T> lookUp(int id) throws UndecodableException {
    long now = System.currentTimeMillis();
    Unknown known = unknown.get(id);
    if (known != null && known.untilMillis() > now) {
      throw new UndecodableException(known.detail());
    }
    RegistryLookup answer = registry.schemaById(id);
    if (answer instanceof RegistryLookup.NotFound notFound) {
      String detail = "schema id " + id + " is not in the schema registry (it answered: "
          + Details.oneLine(notFound.message()) + ")";
      remember(id, new Unknown(detail, now + UNKNOWN_ID_MILLIS), now);
      throw new UndecodableException(detail);
    }
    Writer<T> resolved = resolve(id, (RegistryLookup.Found) answer);
    Writer<T> raced = writers.putIfAbsent(id, resolved);
    return raced == null ? resolved : raced;
  }

  private void remember(int id, Unknown entry, long now) {
    if (unknown.size() >= MAX_UNKNOWN_IDS) {
      unknown.values().removeIf(e -> e.untilMillis() <= now);
      if (unknown.size() >= MAX_UNKNOWN_IDS) {
        unknown.clear();
      }
    }
    unknown.put(id, entry);
  }

  @SuppressWarnings("unchecked")
  private Writer<T> resolve(int id, RegistryLookup.Found found) {
    if (!"AVRO".equalsIgnoreCase(found.schemaType())) {
      return new Refused<>("schema id " + id + " is a " + Details.oneLine(found.schemaType())
          + " schema in the schema registry, not an Avro " + readerSchema.getFullName());
    }
    Schema writer;
    // A fresh parser per schema id: each defines the same names, which one parser would reject as redefined.
    SchemaParser parser = new SchemaParser();
    String missing = parseReferences(id, found.references(), parser, new HashSet<>());
    if (missing != null) {
      return new Refused<>(missing);
    }
    try {
      writer = parser.parse(found.schema()).mainSchema();
    } catch (RuntimeException e) {
      return new Refused<>("schema id " + id + " in the schema registry is not a valid Avro schema: "
          + Details.cause(e));
    }
    if (writer.getType() != Schema.Type.RECORD || !readerSchema.getFullName().equals(writer.getFullName())) {
      return new Refused<>("schema id " + id + " in the schema registry is " + describe(writer) + ", not "
          + readerSchema.getFullName() + " (Avro resolution matches records by full name)");
    }
    // Why the check: for a union branch the reader lacks, Avro's resolver falls back to a structurally compatible
    // branch instead of failing (a new change kind would be read as ProductDeleted); see EventValueDecoder.
    SchemaCompatibility.SchemaPairCompatibility result =
        SchemaCompatibility.checkReaderWriterCompatibility(readerSchema, writer);
    if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      String problems = result.getResult().getIncompatibilities().stream()
          .limit(MAX_INCOMPATIBILITIES_SHOWN)
          .map(i -> i.getType() + " at " + i.getLocation() + " (" + Details.oneLine(i.getMessage()) + ")")
          .collect(Collectors.joining("; "));
      return new Refused<>("schema id " + id + " in the schema registry cannot be resolved to the current "
          + readerSchema.getFullName() + ": " + problems);
    }
    return new Readable<>(writer, (DatumReader<T>) model.createDatumReader(writer, readerSchema));
  }

  /**
   * Parses the schemas {@code references} name into {@code parser}, each after its own references; returns why it
   * cannot (a reference the registry does not have, one that does not parse, too many), or null.
   */
  private String parseReferences(int id, List<RegistryLookup.Reference> references, SchemaParser parser,
      Set<String> seen) {
    for (RegistryLookup.Reference reference : references) {
      if (!seen.add(reference.subject() + "\u0000" + reference.version())) {
        continue;
      }
      if (seen.size() > MAX_REFERENCES) {
        return "schema id " + id + " in the schema registry has more than " + MAX_REFERENCES + " schema references";
      }
      RegistryLookup answer = registry.referenced(reference, id);
      if (answer instanceof RegistryLookup.NotFound notFound) {
        return "schema id " + id + " in the schema registry references " + reference + ", which the registry does"
            + " not have (it answered: " + Details.oneLine(notFound.message()) + ")";
      }
      RegistryLookup.Found found = (RegistryLookup.Found) answer;
      String deeper = parseReferences(id, found.references(), parser, seen);
      if (deeper != null) {
        return deeper;
      }
      try {
        parser.parse(found.schema());
      } catch (RuntimeException e) {
        return "schema id " + id + " in the schema registry references " + reference + ", which is not a valid Avro"
            + " schema: " + Details.cause(e);
      }
    }
    return null;
  }

  private static String describe(Schema schema) {
    return schema.getType() == Schema.Type.RECORD ? "record " + schema.getFullName()
        : "a " + schema.getType().getName() + " schema";
  }

  private static String mismatch(int id, String cause) {
    return "Confluent Schema Registry body does not match schema id " + id + ": " + cause;
  }
}
