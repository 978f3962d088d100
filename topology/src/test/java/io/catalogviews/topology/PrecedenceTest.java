package io.catalogviews.topology;

import static io.catalogviews.topology.DeadLetterChecks.assertSingleDeadLetter;
import static io.catalogviews.topology.TopologyFixture.idOffTheDriverPartition;
import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.product;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.Events.upsertWithProductOf;
import static io.catalogviews.topology.Events.withVersion;
import static io.catalogviews.topology.TopologyFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.product.ProductRow;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The order of precedence of CONTRACT.md section 1: the first rule that applies decides. */
class PrecedenceTest {

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    @Test
    void shouldDeadLetterAsUndecodableWhenAnUndecodableRecordAlsoHasAMismatchedKey() {
        long empty = topology.pipe(utf8("p-other"), new byte[0]);
        long garbage = topology.pipe(null, new byte[] {0x00, 0x00, 0x00, 0x00, 0x01, 0x02});

        var letters = topology.deadLetters();
        assertThat(letters).hasSize(2);
        DeadLetterChecks.assertDeadLetter(letters.get(0), "undecodable", empty);
        DeadLetterChecks.assertDeadLetter(letters.get(1), "undecodable", garbage);
    }

    @Test
    void shouldDeadLetterAsUndecodableWhenAnUndecodableRecordIsAlsoOnTheWrongPartition() {
        try (TopologyFixture partitioned = TopologyFixture.withInputPartitions(12)) {
            long offset = partitioned.pipe(utf8(idOffTheDriverPartition(12)), new byte[] {1, 2, 3});

            assertSingleDeadLetter(partitioned.deadLetters(), "undecodable", offset);
        }
    }

    @Test
    void shouldDeadLetterAsKeyMismatchWhenTheRecordIsAlsoOnTheWrongPartition() {
        try (TopologyFixture partitioned = TopologyFixture.withInputPartitions(12)) {
            long offset = partitioned.send(idOffTheDriverPartition(12), upsert("p-elsewhere", 1));

            assertSingleDeadLetter(partitioned.deadLetters(), "key_mismatch", offset);
        }
    }

    @Test
    void shouldDeadLetterAsKeyMismatchWhenTheEventIsAlsoStale() {
        topology.send(upsert("p-1", 5));
        ProductRow held = topology.row("p-1");

        long offset = topology.send(upsertWithProductOf("p-1", 3, product("p-2")));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
        assertThat(topology.row("p-1")).isEqualTo(held);
        assertThat(topology.counters.stale()).isZero();
    }

    @Test
    void shouldDeadLetterAsKeyMismatchWhenTheEventIsAlsoInvalid() {
        long offset = topology.send(upsertWithProductOf("p-1", 1, product("p 1")));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
    }

    @Test
    void shouldDeadLetterAsWrongPartitionWhenTheEventIsAlsoInvalid() {
        try (TopologyFixture partitioned = TopologyFixture.withInputPartitions(12)) {
            long offset = partitioned.send(upsert(idOffTheDriverPartition(12), 1, p -> p.setSku("")));

            assertSingleDeadLetter(partitioned.deadLetters(), "wrong_partition", offset);
        }
    }

    @Test
    void shouldDeadLetterAsWrongPartitionWhenThePatchIsAlsoForAnUnknownProduct() {
        try (TopologyFixture partitioned = TopologyFixture.withInputPartitions(12)) {
            long offset = partitioned.send(priceChanged(idOffTheDriverPartition(12), 1, 1L, "EUR"));

            assertSingleDeadLetter(partitioned.deadLetters(), "wrong_partition", offset);
        }
    }

    @Test
    void shouldIgnoreAsStaleWithoutDeadLetteringWhenAStaleEventIsAlsoInvalid() {
        topology.send(upsert("p-1", 5));
        ProductRow held = topology.row("p-1");

        topology.send(upsert("p-1", 5, p -> p.setSku("")));
        topology.send(upsert("p-1", 4, p -> p.setRating(Float.NaN)));
        topology.send(priceChanged("p-1", 3, -1L, "eur"));
        topology.send(stockChanged("p-1", 2, -1));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.counters.stale()).isEqualTo(4L);
        assertThat(topology.row("p-1")).isEqualTo(held);
    }

    @Test
    void shouldIgnoreAsStaleWhenTheVersionIsNotPositiveButAProductIsHeld() {
        topology.send(upsert("p-1", 5));

        topology.send(withVersion(upsert("p-1", 1), 0));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.counters.stale()).isEqualTo(1L);
    }

    @Test
    void shouldIgnoreAsStaleWhenAPatchOlderThanTheDeleteArrivesForTheDeletedProduct() {
        topology.send(deleted("p-1", 5));

        topology.send(priceChanged("p-1", 4, 100L, "EUR"));
        topology.send(stockChanged("p-1", 5, 1));

        assertThat(topology.deadLetters()).as("not unknown_product").isEmpty();
        assertThat(topology.counters.stale()).isEqualTo(2L);
    }

    @Test
    void shouldDeadLetterAsInvalidWhenAnInvalidPatchIsAlsoForAnUnknownProduct() {
        long price = topology.send(priceChanged("p-1", 1, -5L, "EUR"));
        long stock = topology.send(stockChanged("p-2", 1, -5));

        var letters = topology.deadLetters();
        assertThat(letters).hasSize(2);
        DeadLetterChecks.assertDeadLetter(letters.get(0), "invalid", price);
        DeadLetterChecks.assertDeadLetter(letters.get(1), "invalid", stock);
    }

    @Test
    void shouldDeadLetterAsInvalidWhenAnInvalidUpsertWouldAlsoBeTooLarge() {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 0; i < 65; i++) {
            attributes.put("attribute-" + i, "x".repeat(1024));
        }

        long offset = topology.send(upsert("p-1", 1, p -> p.setAttributes(attributes)));

        assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
    }
}
