package io.catalogviews.topology;

import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Deletion markers are kept for the deleted retention; after that an old event is accepted again. */
class DeletionRetentionTest {

    private static final Duration RETENTION = Duration.ofMinutes(1);
    private static final Duration PURGE_INTERVAL = Duration.ofSeconds(10);

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.withDeletedRetention(RETENTION, PURGE_INTERVAL);
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    @Test
    void shouldKeepRejectingOlderEventsWhenTheMarkerIsYoungerThanTheRetention() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 5));

        topology.advanceWallClock(Duration.ofSeconds(50));
        topology.send(upsert("p-1", 3));

        assertThat(topology.row("p-1").deleted()).isTrue();
        assertThat(topology.counters.stale()).isEqualTo(1L);
    }

    @Test
    void shouldPurgeTheMarkerAndAcceptAnOldEventAgainWhenTheRetentionHasPassed() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 5));

        topology.advanceWallClock(RETENTION.plus(PURGE_INTERVAL));

        assertThat(topology.row("p-1")).as("purged marker").isNull();
        assertThat(topology.deletionIndex()).isEmpty();

        topology.send(upsert("p-1", 3));

        assertThat(topology.row("p-1").deleted()).isFalse();
        assertThat(topology.row("p-1").version()).isEqualTo(3L);
        assertThat(topology.counters.stale()).isZero();
    }

    @Test
    void shouldPurgeTheMarkerOfATombstoneWhenTheRetentionHasPassed() {
        topology.send(upsert("p-1", 4));
        topology.tombstone("p-1");

        topology.advanceWallClock(RETENTION.plus(PURGE_INTERVAL));
        topology.send(upsert("p-1", 2));

        assertThat(topology.row("p-1").version()).isEqualTo(2L);
    }

    @Test
    void shouldPurgeTheMarkerOfAProductNeverHeldWhenTheRetentionHasPassed() {
        topology.send(deleted("p-1", 5));

        topology.advanceWallClock(RETENTION.plus(PURGE_INTERVAL));

        assertThat(topology.row("p-1")).isNull();
        assertThat(topology.deletionIndex()).isEmpty();
    }

    @Test
    void shouldKeepAProductWhenItWasRecreatedBeforeThePurge() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 5));
        topology.send(upsert("p-1", 6));

        topology.advanceWallClock(RETENTION.multipliedBy(2));

        assertThat(topology.row("p-1").deleted()).isFalse();
        assertThat(topology.row("p-1").version()).isEqualTo(6L);
        assertThat(topology.deletionIndex()).isEmpty();
    }

    @Test
    void shouldKeepTheNewerMarkerWhenTheProductWasDeletedAgainAfterTheFirstDelete() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 5));
        topology.advanceWallClock(Duration.ofSeconds(30));
        topology.send(upsert("p-1", 6));
        topology.send(deleted("p-1", 7));

        topology.advanceWallClock(Duration.ofSeconds(40));

        assertThat(topology.row("p-1").deleted()).as("the second marker is 40 s old").isTrue();
        assertThat(topology.row("p-1").version()).isEqualTo(7L);
        assertThat(topology.deletionIndex()).hasSize(1);

        topology.advanceWallClock(Duration.ofSeconds(30));

        assertThat(topology.row("p-1")).isNull();
        assertThat(topology.deletionIndex()).isEmpty();
    }

    @Test
    void shouldPurgeOnlyExpiredMarkersWhenMarkersOfSeveralAgesAreHeld() {
        topology.send(deleted("p-old", 1));
        topology.advanceWallClock(Duration.ofSeconds(45));
        topology.send(deleted("p-young", 1));

        topology.advanceWallClock(Duration.ofSeconds(25));

        assertThat(topology.row("p-old")).isNull();
        assertThat(topology.row("p-young").deleted()).isTrue();
    }

    @Test
    void shouldNotTouchLiveProductsWhenPurging() {
        topology.send(upsert("p-1", 1));

        topology.advanceWallClock(RETENTION.multipliedBy(3));

        assertThat(topology.row("p-1").version()).isEqualTo(1L);
    }
}
