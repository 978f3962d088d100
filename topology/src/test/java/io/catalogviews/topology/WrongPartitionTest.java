package io.catalogviews.topology;

import static io.catalogviews.topology.DeadLetterChecks.assertSingleDeadLetter;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.TopologyFixture.idOffTheDriverPartition;
import static io.catalogviews.topology.TopologyFixture.idOnTheDriverPartition;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 3 of CONTRACT.md section 1. The test driver feeds every record to partition 0; with 12 input partitions,
 * a key that murmur2 places elsewhere is on the wrong partition.
 */
class WrongPartitionTest {

    private static final int PARTITIONS = 12;
    private TopologyFixture partitioned;

    @BeforeEach
    void startPartitionedTopology() {
        partitioned = TopologyFixture.withInputPartitions(PARTITIONS);
    }

    @AfterEach
    void closePartitionedTopology() {
        partitioned.close();
    }

    @Test
    void shouldDeadLetterAnEventWhenMurmur2PlacesItsKeyOnAnotherPartition() {
        String id = idOffTheDriverPartition(PARTITIONS);

        long offset = partitioned.send(upsert(id, 1));

        String detail = assertSingleDeadLetter(partitioned.deadLetters(), "wrong_partition", offset);
        assertThat(detail).contains(Integer.toString(partition(id)));
        assertThat(partitioned.row(id)).isNull();
    }

    @Test
    void shouldApplyAnEventWhenMurmur2PlacesItsKeyOnThePartitionItArrivedOn() {
        String id = idOnTheDriverPartition(PARTITIONS);

        partitioned.send(upsert(id, 1));

        assertThat(partitioned.deadLetters()).isEmpty();
        assertThat(partitioned.row(id).version()).isEqualTo(1L);
    }

    @Test
    void shouldDeadLetterATombstoneWhenMurmur2PlacesItsKeyOnAnotherPartition() {
        long offset = partitioned.tombstone(idOffTheDriverPartition(PARTITIONS));

        assertSingleDeadLetter(partitioned.deadLetters(), "wrong_partition", offset);
    }

    @Test
    void shouldDeadLetterAPatchWhenMurmur2PlacesItsKeyOnAnotherPartition() {
        long offset = partitioned.send(stockChanged(idOffTheDriverPartition(PARTITIONS), 1, 3));

        assertSingleDeadLetter(partitioned.deadLetters(), "wrong_partition", offset);
    }

    private static int partition(String id) {
        return BuiltInPartitioner.partitionForKey(TopologyFixture.utf8(id), PARTITIONS);
    }
}
