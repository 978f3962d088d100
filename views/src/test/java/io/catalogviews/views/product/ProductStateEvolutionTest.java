package io.catalogviews.views.product;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.ProductEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * Stored product states survive schema evolution (issue 11, point 6): a newer release reads what an older one
 * stored. The older schema here is {@code Product} without its optional {@code rating} (a test resource): to it,
 * the current schema is "an optional field added".
 */
class ProductStateEvolutionTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void shouldReadAStateWrittenWithAnOlderSchemaWhenAnOptionalFieldWasAddedSince() throws IOException {
        Schema older = olderSchema();
        GenericRecord stored = new GenericData.Record(older);
        stored.put("id", "p-1");
        stored.put("sku", "SKU-1");
        stored.put("name", "Phone");
        stored.put("brand", "acme");
        stored.put("categories", List.of("phones"));
        stored.put("priceCents", 4_990L);
        stored.put("currency", "EUR");
        stored.put("stock", 3);
        stored.put("attributes", Map.of("color", "black"));
        stored.put("updatedAt", AT.toEpochMilli());

        Product read = ProductState.decode(framed(older, stored), StateSchemas.of(List.of(older)));

        assertThat(read.getId()).isEqualTo("p-1");
        assertThat(read.getPriceCents()).isEqualTo(4_990L);
        assertThat(read.getCategories()).containsExactly("phones");
        assertThat(read.getRating()).as("the field the older schema did not have").isNull();
        assertThat(read.getUpdatedAt()).isEqualTo(AT);
        assertThat(new String(ProductJson.render(read, 2), StandardCharsets.UTF_8)).contains("\"rating\":null");
    }

    @Test
    void shouldReadAStateStoredWithoutAFingerprintWhenTheRowPredatesIt() throws IOException {
        Product product = ProductEvents.product("p-2", "acme", "phones", 100, 1, AT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>(Product.class).write(product, encoder);
        encoder.flush();

        assertThat(ProductState.decode(out.toByteArray())).isEqualTo(product);
    }

    @Test
    void shouldRoundTripAndCarryTheCurrentFingerprintWhenEncoding() {
        Product product = ProductEvents.product("p-3", "acme", "phones", 100, 1, AT);

        byte[] state = ProductState.encode(product);

        assertThat(state[0]).isEqualTo((byte) 0xC3);
        assertThat(state[1]).isEqualTo((byte) 0x01);
        assertThat(ByteBuffer.wrap(state, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong())
                .isEqualTo(StateSchemas.fingerprint(Product.getClassSchema()));
        assertThat(ProductState.decode(state)).isEqualTo(product);
    }

    @Test
    void shouldRefuseNamingTheFingerprintWhenTheWriterSchemaIsUnknown() throws IOException {
        Schema older = olderSchema();
        byte[] state = framed(older, null);

        assertThatThrownBy(() -> ProductState.decode(state))
                .as("the released schemas do not hold the older test schema")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Long.toHexString(StateSchemas.fingerprint(older)));
    }

    @Test
    void shouldRenderAgainFromTheStateWhenARowWasRenderedByAnOlderRelease() {
        Product product = ProductEvents.product("p-4", "acme", "phones", 100, 1, AT);
        byte[] current = ProductRow.live(7, ProductJson.render(product, 7), ProductState.encode(product)).encode();
        byte[] older = new ProductRow(ProductJson.RENDER_VERSION - 1, 7, false, 0L,
                "{\"old\":\"shape\"}".getBytes(StandardCharsets.UTF_8), ProductState.encode(product)).encode();

        assertThat(ProductRow.servingJson(older)).isEqualTo(ProductJson.render(product, 7));
        assertThat(ProductRow.servingJson(current)).isEqualTo(ProductJson.render(product, 7));
    }

    private static Schema olderSchema() throws IOException {
        try (InputStream in = ProductStateEvolutionTest.class.getResourceAsStream("Product-before-rating.avsc")) {
            return new Schema.Parser().parse(in);
        }
    }

    /** The state as a release with {@code schema} wrote it: single-object framing, then the body. */
    private static byte[] framed(Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xC3);
        out.write(0x01);
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(StateSchemas.fingerprint(schema)).array());
        if (record != null) {
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
            encoder.flush();
        }
        return out.toByteArray();
    }
}
