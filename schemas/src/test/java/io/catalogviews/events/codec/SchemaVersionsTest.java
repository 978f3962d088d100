package io.catalogviews.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.events.ProductEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaVersionsTest {
  /**
   * The Parsing Canonical Form of version 1, pinned: the single-object fingerprint is computed from exactly this
   * text, so producers that never saw our .avsc files depend on it (CONTRACT.md, section 1).
   */
  static final String V1_CANONICAL_FORM = "{\"name\":\"io.catalogviews.events.ProductEvent\",\"type\":\"record\","
      + "\"fields\":[{\"name\":\"eventId\",\"type\":\"string\"},{\"name\":\"productId\",\"type\":\"string\"},"
      + "{\"name\":\"version\",\"type\":\"long\"},{\"name\":\"occurredAt\",\"type\":\"long\"},{\"name\":\"change\","
      + "\"type\":[{\"name\":\"io.catalogviews.events.ProductUpserted\",\"type\":\"record\",\"fields\":[{\"name\":"
      + "\"product\",\"type\":{\"name\":\"io.catalogviews.events.Product\",\"type\":\"record\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"sku\",\"type\":\"string\"},{\"name\":\"name\",\"type\":"
      + "\"string\"},{\"name\":\"brand\",\"type\":\"string\"},{\"name\":\"categories\",\"type\":{\"type\":\"array\","
      + "\"items\":\"string\"}},{\"name\":\"priceCents\",\"type\":\"long\"},{\"name\":\"currency\",\"type\":"
      + "\"string\"},{\"name\":\"stock\",\"type\":\"int\"},{\"name\":\"rating\",\"type\":[\"null\",\"float\"]},"
      + "{\"name\":\"attributes\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},{\"name\":\"updatedAt\","
      + "\"type\":\"long\"}]}}]},{\"name\":\"io.catalogviews.events.PriceChanged\",\"type\":\"record\",\"fields\":["
      + "{\"name\":\"priceCents\",\"type\":\"long\"},{\"name\":\"currency\",\"type\":\"string\"}]},{\"name\":"
      + "\"io.catalogviews.events.StockChanged\",\"type\":\"record\",\"fields\":[{\"name\":\"stock\",\"type\":"
      + "\"int\"}]},{\"name\":\"io.catalogviews.events.ProductDeleted\",\"type\":\"record\",\"fields\":[]}]}]}";
  static final long V1_FINGERPRINT = 0xDEF56D6808C76A67L;

  @TempDir Path temp;

  @Test
  void shouldListVersionsFromOneWhenLoadingTheReleasedVersions() {
    SchemaVersions released = SchemaVersions.released();

    assertThat(released.size()).isGreaterThanOrEqualTo(1);
    for (int i = 0; i < released.size(); i++) {
      SchemaVersions.Version version = released.all().get(i);
      assertThat(version.number()).isEqualTo(i + 1);
      assertThat(version.fingerprint()).isEqualTo(SchemaNormalization.parsingFingerprint64(version.schema()));
      assertThat(released.byFingerprint(version.fingerprint())).contains(version);
      assertThat(released.byNumber(i + 1)).contains(version);
    }
    assertThat(released.byNumber(0)).isEmpty();
    assertThat(released.byNumber(released.size() + 1)).isEmpty();
  }

  @Test
  void shouldKeepTheContractsCanonicalFormWhenReadingVersionOne() {
    SchemaVersions.Version v1 = SchemaVersions.released().byNumber(1).orElseThrow();

    assertThat(v1.canonicalForm()).isEqualTo(V1_CANONICAL_FORM);
    assertThat(v1.fingerprint()).isEqualTo(V1_FINGERPRINT);
    assertThat(v1.fingerprintHex()).isEqualTo("0xDEF56D6808C76A67");
  }

  @Test
  void shouldEqualTheNewestReleasedVersionWhenComparingTheCurrentSchemasCanonicalForm() {
    // A change to src/main/avro/ProductEvent.avsc must come with a new released version file: producers keep
    // writing every released version, and single-object values name their writer schema only by fingerprint.
    assertThat(SchemaNormalization.toParsingForm(SchemaVersions.current()))
        .as("the current .avsc changed; add it as ProductEvent-v%d.avsc and list it in %s",
            SchemaVersions.released().size() + 1, SchemaVersions.INDEX)
        .isEqualTo(SchemaVersions.released().newest().canonicalForm());
    assertThat(SchemaVersions.current()).isSameAs(ProductEvent.getClassSchema());
  }

  @ParameterizedTest(name = "v{0}")
  @MethodSource("releasedNumbers")
  void shouldResolveToTheCurrentSchemaWhenWrittenWithAnyReleasedVersion(int number) {
    Schema writer = SchemaVersions.released().byNumber(number).orElseThrow().schema();

    assertThat(SchemaCompatibility.checkReaderWriterCompatibility(SchemaVersions.current(), writer).getType())
        .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
  }

  static List<Integer> releasedNumbers() {
    return SchemaVersions.released().all().stream().map(SchemaVersions.Version::number).toList();
  }

  @Test
  void shouldFollowTheContractWhenListingFieldsTypesAndUnionBranches() {
    Schema v1 = SchemaVersions.released().byNumber(1).orElseThrow().schema();
    for (Schema schema : List.of(SchemaVersions.current(), v1)) {
      assertThat(schema.getFullName()).isEqualTo("io.catalogviews.events.ProductEvent");
      assertFields(schema, "eventId:STRING", "productId:STRING", "version:LONG", "occurredAt:LONG", "change:UNION");
      assertThat(schema.getField("occurredAt").schema().getLogicalType()).isEqualTo(LogicalTypes.timestampMillis());

      List<Schema> branches = schema.getField("change").schema().getTypes();
      assertThat(branches).extracting(Schema::getFullName).containsExactly(
          "io.catalogviews.events.ProductUpserted", "io.catalogviews.events.PriceChanged",
          "io.catalogviews.events.StockChanged", "io.catalogviews.events.ProductDeleted");
      assertFields(branches.get(0), "product:RECORD");
      assertFields(branches.get(1), "priceCents:LONG", "currency:STRING");
      assertFields(branches.get(2), "stock:INT");
      assertFields(branches.get(3));

      Schema product = branches.get(0).getField("product").schema();
      assertThat(product.getFullName()).isEqualTo("io.catalogviews.events.Product");
      assertFields(product, "id:STRING", "sku:STRING", "name:STRING", "brand:STRING", "categories:ARRAY",
          "priceCents:LONG", "currency:STRING", "stock:INT", "rating:UNION", "attributes:MAP", "updatedAt:LONG");
      assertThat(product.getField("categories").schema().getElementType().getType()).isEqualTo(Schema.Type.STRING);
      assertThat(product.getField("attributes").schema().getValueType().getType()).isEqualTo(Schema.Type.STRING);
      assertThat(product.getField("rating").schema().getTypes()).extracting(Schema::getType)
          .containsExactly(Schema.Type.NULL, Schema.Type.FLOAT);
      assertThat(product.getField("updatedAt").schema().getLogicalType()).isEqualTo(LogicalTypes.timestampMillis());
    }
  }

  @Test
  void shouldLoadFromAJarWhenTheVersionsArePackaged() throws IOException {
    Path jar = temp.resolve("schemas.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      putEntry(out, SchemaVersions.INDEX, "# comment\n\nProductEvent-v1.avsc\n".getBytes(StandardCharsets.UTF_8));
      putEntry(out, SchemaVersions.FOLDER + "ProductEvent-v1.avsc", releasedV1Bytes());
    }
    try (URLClassLoader loader = isolated(jar.toUri().toURL())) {
      SchemaVersions loaded = SchemaVersions.load(loader);

      assertThat(loaded.size()).isEqualTo(1);
      assertThat(loaded.newest().fingerprint()).isEqualTo(V1_FINGERPRINT);
    }
  }

  @Test
  void shouldFailFastWhenTheReleaseHistoryIsDamaged() throws IOException {
    assertThatThrownBy(() -> loadFolder("ProductEvent-v1.avsc\nProductEvent-v3.avsc\n", "ProductEvent-v1.avsc",
        "ProductEvent-v3.avsc"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("version 2 was expected");
    assertThatThrownBy(() -> loadFolder("ProductEvent-v1.avsc\nProductEvent-v2.avsc\n", "ProductEvent-v1.avsc"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("missing classpath resource");
    assertThatThrownBy(() -> loadFolder("ProductEvent-v1.avsc\nProductEvent-v2.avsc\n", "ProductEvent-v1.avsc",
        "ProductEvent-v2.avsc")).isInstanceOf(IllegalStateException.class).hasMessageContaining("same canonical form");
    assertThatThrownBy(() -> loadFolder("product-v1.avsc\n", "ProductEvent-v1.avsc"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("expected ProductEvent-v<N>.avsc");
    assertThatThrownBy(() -> loadFolder("# nothing yet\n"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lists no schema versions");
    assertThatThrownBy(() -> SchemaVersions.of(List.of(Schema.create(Schema.Type.STRING))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a io.catalogviews.events.ProductEvent");
  }

  private SchemaVersions loadFolder(String index, String... copiesOfV1) throws IOException {
    Path root = Files.createTempDirectory(temp, "cp");
    Path folder = Files.createDirectories(root.resolve(SchemaVersions.FOLDER));
    Files.writeString(root.resolve(SchemaVersions.INDEX), index);
    for (String name : copiesOfV1) {
      Files.write(folder.resolve(name), releasedV1Bytes());
    }
    try (URLClassLoader loader = isolated(root.toUri().toURL())) {
      return SchemaVersions.load(loader);
    }
  }

  private static URLClassLoader isolated(URL url) {
    // No parent resources: the test's own classpath holds the real versions, which must not leak in.
    return new URLClassLoader(new URL[] {url}, null);
  }

  private static byte[] releasedV1Bytes() throws IOException {
    try (InputStream in = SchemaVersions.class.getClassLoader()
        .getResourceAsStream(SchemaVersions.FOLDER + "ProductEvent-v1.avsc")) {
      return in.readAllBytes();
    }
  }

  private static void putEntry(JarOutputStream out, String name, byte[] bytes) throws IOException {
    out.putNextEntry(new JarEntry(name));
    OutputStream entry = out;
    entry.write(bytes);
    out.closeEntry();
  }

  private static void assertFields(Schema record, String... nameColonType) {
    assertThat(record.getFields()).extracting(field -> field.name() + ":" + field.schema().getType())
        .containsExactly(nameColonType);
  }
}
