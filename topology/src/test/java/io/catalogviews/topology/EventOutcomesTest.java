package io.catalogviews.topology;

import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.occurredAt;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.TopologyFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outcome of every record, as told to the listener of {@link TopologySettings#withOutcomes}. */
class EventOutcomesTest {

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
    void shouldCountAppliedStaleAndEachDeadLetterReasonWhenRecordsOfEveryOutcomeArrive() {
        topology.send(upsert("p-1", 1));
        topology.send(priceChanged("p-1", 2, 10L, "EUR"));
        topology.send(stockChanged("p-1", 3, 0));
        topology.send(deleted("p-1", 4));
        topology.tombstone("p-1");
        topology.send(upsert("p-1", 2));
        topology.send(upsert("p-1", 4));
        topology.pipe(utf8("p-1"), new byte[0]);
        topology.pipe(utf8("p-1"), new byte[] {1});
        topology.send("p-x", upsert("p-2", 1));
        topology.send(upsert("p-2", 1, p -> p.setStock(-1)));
        topology.send(upsert("p-2", 2, p -> p.setCurrency("x")));
        topology.send(upsert("p-2", 3, p -> p.setBrand("")));
        topology.send(stockChanged("p-3", 1, 1));
        topology.send(upsert("p-4", 1, p -> p.setAttributes(hugeAttributes())));

        EventCounters counters = topology.counters;
        assertThat(counters.applied()).isEqualTo(5L);
        assertThat(counters.stale()).isEqualTo(2L);
        assertThat(counters.deadLetteredFor(DeadLetterReason.UNDECODABLE)).isEqualTo(2L);
        assertThat(counters.deadLetteredFor(DeadLetterReason.KEY_MISMATCH)).isEqualTo(1L);
        assertThat(counters.deadLetteredFor(DeadLetterReason.WRONG_PARTITION)).isZero();
        assertThat(counters.deadLetteredFor(DeadLetterReason.INVALID)).isEqualTo(3L);
        assertThat(counters.deadLetteredFor(DeadLetterReason.UNKNOWN_PRODUCT)).isEqualTo(1L);
        assertThat(counters.deadLetteredFor(DeadLetterReason.TOO_LARGE)).isEqualTo(1L);
        assertThat(counters.deadLettered()).isEqualTo(8L);
        assertThat(topology.deadLetters()).hasSize(8);
    }

    @Test
    void shouldCountWrongPartitionWhenARecordIsOnAnotherPartition() {
        try (TopologyFixture partitioned = TopologyFixture.withInputPartitions(12)) {
            partitioned.send(upsert(TopologyFixture.idOffTheDriverPartition(12), 1));
            partitioned.tombstone(TopologyFixture.idOffTheDriverPartition(12));
            partitioned.send(upsert(TopologyFixture.idOnTheDriverPartition(12), 1));

            assertThat(partitioned.counters.deadLetteredFor(DeadLetterReason.WRONG_PARTITION)).isEqualTo(2L);
            assertThat(partitioned.counters.applied()).isEqualTo(1L);
        }
    }

    @Test
    void shouldTellTheKindVersionAndOccurredAtWhenEventsAreApplied() {
        topology.send(upsert("p-1", 1));
        topology.send(priceChanged("p-1", 2, 10L, "EUR"));
        topology.send(stockChanged("p-1", 3, 0));
        topology.send(deleted("p-1", 4));
        topology.send(upsert("p-1", 5));
        topology.tombstone("p-1");

        assertThat(topology.outcomes).containsExactly(
                "applied UPSERT p-1 v1 at " + occurredAt(1).toEpochMilli(),
                "applied PRICE p-1 v2 at " + occurredAt(2).toEpochMilli(),
                "applied STOCK p-1 v3 at " + occurredAt(3).toEpochMilli(),
                "applied DELETE p-1 v4 at " + occurredAt(4).toEpochMilli(),
                "applied UPSERT p-1 v5 at " + occurredAt(5).toEpochMilli(),
                "applied TOMBSTONE p-1 v5 at -1");
    }

    @Test
    void shouldTellExactlyOneOutcomePerRecordWhenRecordsOfEveryOutcomeArrive() {
        topology.send(upsert("p-1", 1));
        topology.send(upsert("p-1", 1));
        topology.pipe(utf8("p-1"), new byte[0]);
        topology.send(stockChanged("p-2", 1, 1));
        topology.tombstone("p-1");

        assertThat(topology.outcomes).containsExactly(
                "applied UPSERT p-1 v1 at " + occurredAt(1).toEpochMilli(),
                "stale p-1 v1",
                "dead-lettered undecodable",
                "dead-lettered unknown_product",
                "applied TOMBSTONE p-1 v1 at -1");
    }

    @Test
    void shouldStartAtZeroWhenNothingHappened() {
        EventCounters counters = new EventCounters();

        assertThat(counters.applied()).isZero();
        assertThat(counters.stale()).isZero();
        assertThat(counters.deadLettered()).isZero();
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            assertThat(counters.deadLetteredFor(reason)).isZero();
        }
    }

    @Test
    void shouldUseTheContractNamesWhenNamingDeadLetterReasons() {
        assertThat(DeadLetterReason.values()).extracting(DeadLetterReason::wireName).containsExactly(
                "undecodable", "key_mismatch", "wrong_partition", "invalid", "unknown_product", "too_large",
                "processing_error");
    }

    private static Map<String, String> hugeAttributes() {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 0; i < 64; i++) {
            attributes.put("attribute-" + i, "x".repeat(1024));
        }
        return attributes;
    }
}
