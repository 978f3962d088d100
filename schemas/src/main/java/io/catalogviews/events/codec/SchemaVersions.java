package io.catalogviews.events.codec;

import io.catalogviews.events.ProductEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParser;

/**
 * The released writer schemas of {@code ProductEvent}: every version a producer may have written with.
 *
 * <p>Contract (CONTRACT.md, section 1): every schema version kept in {@code schemas/} is accepted on the input
 * topic and resolved to the current reader schema, so versions are only ever added, never edited or removed.
 * Version files live on the classpath as {@value #FOLDER}{@code ProductEvent-v<N>.avsc}, numbered 1, 2, 3... and
 * listed, oldest first, in {@value #INDEX}. The index exists because a classpath folder cannot be listed reliably
 * once it is inside a jar.
 *
 * <p>Loading fails fast ({@link IllegalStateException}) on a missing file, a gap in the numbering, a schema that is
 * not a {@code io.catalogviews.events.ProductEvent} record, or two versions with the same canonical form: each of
 * these means the release history has been damaged, which must stop the build rather than reach production.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class SchemaVersions {
  /** Classpath folder of the released version files. */
  public static final String FOLDER = "io/catalogviews/events/versions/";
  /** Classpath resource listing the released version files, one name a line, oldest first. */
  public static final String INDEX = FOLDER + "index.txt";

  private static final Pattern FILE_NAME = Pattern.compile("ProductEvent-v([1-9][0-9]*)\\.avsc");

  /**
   * One released writer schema.
   *
   * @param number the version number, from 1
   * @param schema the writer schema as released
   * @param fingerprint CRC-64-AVRO fingerprint of the schema's Parsing Canonical Form, as carried in the
   *     single-object header
   */
  public record Version(int number, Schema schema, long fingerprint) {
    public Version {
      Objects.requireNonNull(schema, "schema");
    }

    /** The fingerprint as {@code 0x} and 16 upper-case hex digits, the notation used in decode details. */
    public String fingerprintHex() {
      return Details.hexFingerprint(fingerprint);
    }

    /** The Parsing Canonical Form of the schema: what the fingerprint is computed from. */
    public String canonicalForm() {
      return SchemaNormalization.toParsingForm(schema);
    }
  }

  private final List<Version> versions;
  private final Map<Long, Version> byFingerprint;

  private SchemaVersions(List<Version> versions) {
    this.versions = List.copyOf(versions);
    Map<Long, Version> index = new HashMap<>();
    for (Version version : this.versions) {
      Version clash = index.put(version.fingerprint(), version);
      if (clash != null) {
        throw new IllegalStateException("schema versions " + clash.number() + " and " + version.number()
            + " have the same canonical form (fingerprint " + version.fingerprintHex()
            + "); a new version must change the schema");
      }
    }
    this.byFingerprint = Map.copyOf(index);
  }

  /** The versions released with this build, loaded once from the classpath. */
  public static SchemaVersions released() {
    return Released.INSTANCE;
  }

  /** The current reader schema: the one the generated classes are built from. */
  public static Schema current() {
    return ProductEvent.getClassSchema();
  }

  /** CRC-64-AVRO fingerprint of the Parsing Canonical Form of {@code schema}. */
  public static long fingerprint(Schema schema) {
    return SchemaNormalization.parsingFingerprint64(schema);
  }

  /**
   * Loads the released versions listed in {@value #INDEX} of {@code loader}.
   *
   * @throws IllegalStateException if the index or a listed file is missing or invalid
   */
  public static SchemaVersions load(ClassLoader loader) {
    List<String> fileNames = readIndex(loader);
    if (fileNames.isEmpty()) {
      throw new IllegalStateException(INDEX + " lists no schema versions");
    }
    List<Version> versions = new ArrayList<>();
    for (String fileName : fileNames) {
      Matcher matcher = FILE_NAME.matcher(fileName);
      if (!matcher.matches()) {
        throw new IllegalStateException(INDEX + " lists '" + fileName + "'; expected ProductEvent-v<N>.avsc");
      }
      int number = Integer.parseInt(matcher.group(1));
      if (number != versions.size() + 1) {
        throw new IllegalStateException(INDEX + " lists " + fileName + " where version " + (versions.size() + 1)
            + " was expected; versions are numbered from 1, oldest first, and never removed");
      }
      versions.add(version(number, parse(loader, FOLDER + fileName)));
    }
    return new SchemaVersions(versions);
  }

  /**
   * Versions numbered 1, 2, 3... in the order given, for codecs built from explicit writer schemas (tests, tools).
   *
   * @throws IllegalArgumentException if the list is empty
   * @throws IllegalStateException if two schemas have the same canonical form
   */
  public static SchemaVersions of(List<Schema> writerSchemas) {
    if (writerSchemas.isEmpty()) {
      throw new IllegalArgumentException("at least one writer schema is needed");
    }
    List<Version> versions = new ArrayList<>();
    for (Schema schema : writerSchemas) {
      versions.add(version(versions.size() + 1, schema));
    }
    return new SchemaVersions(versions);
  }

  /** All versions, oldest (number 1) first. */
  public List<Version> all() {
    return versions;
  }

  /** The writer schemas of {@link #all()}, in the same order. */
  public List<Schema> schemas() {
    return versions.stream().map(Version::schema).toList();
  }

  /** How many versions there are. */
  public int size() {
    return versions.size();
  }

  /** The most recently released version. */
  public Version newest() {
    return versions.get(versions.size() - 1);
  }

  /** The version with this number, if released. */
  public Optional<Version> byNumber(int number) {
    return number >= 1 && number <= versions.size() ? Optional.of(versions.get(number - 1)) : Optional.empty();
  }

  /** The version whose canonical form has this fingerprint, if any. */
  public Optional<Version> byFingerprint(long fingerprint) {
    return Optional.ofNullable(byFingerprint.get(fingerprint));
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("SchemaVersions[");
    for (Version version : versions) {
      out.append(version.number() == 1 ? "" : ", ").append('v').append(version.number()).append('=')
          .append(version.fingerprintHex());
    }
    return out.append(']').toString();
  }

  private static Version version(int number, Schema schema) {
    if (schema.getType() != Schema.Type.RECORD || !current().getFullName().equals(schema.getFullName())) {
      throw new IllegalStateException("schema version " + number + " is " + schema.getFullName()
          + ", not a " + current().getFullName() + " record");
    }
    return new Version(number, schema, fingerprint(schema));
  }

  private static List<String> readIndex(ClassLoader loader) {
    try (InputStream in = open(loader, INDEX);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      List<String> names = new ArrayList<>();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String name = line.strip();
        if (!name.isEmpty() && !name.startsWith("#")) {
          names.add(name);
        }
      }
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + INDEX, e);
    }
  }

  private static Schema parse(ClassLoader loader, String resource) {
    // A fresh parser per file: every version defines the same names, which one parser would reject as redefined.
    try (InputStream in = open(loader, resource)) {
      return new SchemaParser().parse(in, StandardCharsets.UTF_8).mainSchema();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot parse " + resource + ": " + e.getMessage(), e);
    }
  }

  private static InputStream open(ClassLoader loader, String resource) {
    InputStream in = loader.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("missing classpath resource " + resource);
    }
    return in;
  }

  /** Holder idiom: loads on first use, once, without locking afterwards. */
  private static final class Released {
    static final SchemaVersions INSTANCE = load(SchemaVersions.class.getClassLoader());
  }
}
