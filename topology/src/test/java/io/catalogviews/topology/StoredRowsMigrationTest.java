package io.catalogviews.topology;

import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.product;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.Product;
import io.catalogviews.views.product.ProductJson;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.product.ProductState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rows an earlier release stored — Avro state without a schema fingerprint, JSON of an older rendering — are
 * read by this one, patched, replaced, deleted and compared for staleness like its own (issue 11, point 6; the
 * state's schema evolution itself: ProductStateEvolutionTest).
 */
class StoredRowsMigrationTest {

    private TopologyFixture topology;

    @BeforeEach
    void start() {
        topology = TopologyFixture.start();
        for (String id : new String[] {"p-1", "p-2", "p-3", "p-4"}) {
            topology.storeRow(id, earlierReleaseRow(product(id), 5));
        }
    }

    @AfterEach
    void close() {
        topology.close();
    }

    @Test
    void shouldApplyMixedEventsToRowsStoredByAnEarlierRelease() {
        topology.send(priceChanged("p-1", 6, 12_345, "EUR"));
        topology.send(stockChanged("p-2", 6, 0));
        topology.send(upsert("p-3", 6, p -> p.setName("Renamed")));
        topology.send(deleted("p-4", 6));

        assertThat(topology.json("p-1").get("priceCents").asLong()).isEqualTo(12_345);
        assertThat(topology.json("p-1").get("name").asText()).isEqualTo("Phone p-1");
        assertThat(topology.json("p-2").get("inStock").asBoolean()).isFalse();
        assertThat(topology.json("p-3").get("name").asText()).isEqualTo("Renamed");
        assertThat(topology.row("p-4").deleted()).isTrue();
        assertThat(topology.categoryPrice("phones", "p-1")).isEqualTo(12_345);
        assertThat(topology.categoryPrice("phones", "p-4")).isNull();
        assertThat(ProductState.decode(topology.row("p-1").state()).getPriceCents())
                .as("the state is rewritten in the current framing").isEqualTo(12_345);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldRejectAsStaleWhenAnEventIsNotNewerThanAStoredRow() {
        topology.send(priceChanged("p-1", 5, 1, "EUR"));

        assertThat(topology.outcomes).containsExactly("stale p-1 v5");
        assertThat(ProductRow.servingJson(topology.rawRow("p-1")))
                .as("the row is re-rendered when read").isEqualTo(ProductJson.render(product("p-1"), 5));
    }

    /** Bare Avro binary state and render version 0, as rows were stored before the state carried a fingerprint. */
    private static byte[] earlierReleaseRow(Product product, long version) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            new SpecificDatumWriter<>(Product.class).write(product, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ProductRow(0, version, false, 0L, "{\"an\":\"older rendering\"}".getBytes(StandardCharsets.UTF_8),
                out.toByteArray()).encode();
    }
}
