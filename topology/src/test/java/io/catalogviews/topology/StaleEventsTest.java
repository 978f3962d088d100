package io.catalogviews.topology;

import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.Events.withOccurredAt;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.product.ProductRow;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 4 of CONTRACT.md section 1, and the remembered version: the version of the last applied event, a deletion
 * included; dead-lettered and stale events never change it.
 */
class StaleEventsTest {

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
        topology.send(upsert("p-1", 5));
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    @Test
    void shouldIgnoreAndCountAnUpsertWhenItsVersionEqualsTheRemembered() {
        ProductRow held = topology.row("p-1");

        topology.send(upsert("p-1", 5, p -> p.setName("Other name")));

        assertThat(topology.row("p-1")).isEqualTo(held);
        assertThat(topology.counters.stale()).isEqualTo(1L);
        assertThat(topology.outcomes).endsWith("stale p-1 v5");
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldIgnoreAndCountAnUpsertWhenItsVersionIsLower() {
        ProductRow held = topology.row("p-1");

        topology.send(upsert("p-1", 4, p -> p.setName("Older name")));

        assertThat(topology.row("p-1")).isEqualTo(held);
        assertThat(topology.counters.stale()).isEqualTo(1L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldIgnoreAndCountPatchesWhenTheirVersionsAreNotHigher() {
        ProductRow held = topology.row("p-1");

        topology.send(priceChanged("p-1", 5, 1L, "USD"));
        topology.send(stockChanged("p-1", 1, 0));

        assertThat(topology.row("p-1")).isEqualTo(held);
        assertThat(topology.counters.stale()).isEqualTo(2L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldIgnoreADeleteWhenItsVersionIsNotHigher() {
        topology.send(deleted("p-1", 5));
        topology.send(deleted("p-1", 2));

        assertThat(topology.row("p-1").deleted()).isFalse();
        assertThat(topology.counters.stale()).isEqualTo(2L);
    }

    @Test
    void shouldIgnoreALateUpsertWithoutDeadLetteringWhenItIsOlderThanTheDelete() {
        topology.send(deleted("p-1", 7));

        topology.send(upsert("p-1", 6));

        assertThat(topology.row("p-1").deleted()).isTrue();
        assertThat(topology.row("p-1").version()).isEqualTo(7L);
        assertThat(topology.counters.stale()).isEqualTo(1L);
        assertThat(topology.deadLetters()).isEmpty();
    }

    @Test
    void shouldKeepTheRememberedVersionWhenAStaleEventIsIgnored() {
        topology.send(upsert("p-1", 3));

        topology.send(upsert("p-1", 4));

        assertThat(topology.row("p-1").version()).isEqualTo(5L);
        assertThat(topology.counters.stale()).isEqualTo(2L);
    }

    @Test
    void shouldKeepTheRememberedVersionWhenAnInvalidEventWithAHigherVersionIsDeadLettered() {
        topology.send(upsert("p-1", 9, p -> p.setSku("")));

        topology.send(upsert("p-1", 6));

        assertThat(topology.row("p-1").version()).as("v9 was never remembered").isEqualTo(6L);
        assertThat(topology.counters.stale()).isZero();
    }

    @Test
    void shouldKeepTheRememberedVersionWhenAnInvalidDeleteIsDeadLettered() {
        topology.send(withOccurredAt(deleted("p-1", 9), Instant.EPOCH.minusMillis(1)));

        topology.send(stockChanged("p-1", 6, 1));

        assertThat(topology.deadLetters()).hasSize(1);
        assertThat(topology.row("p-1").deleted()).isFalse();
        assertThat(topology.row("p-1").version()).isEqualTo(6L);
    }

    @Test
    void shouldKeepTheRememberedVersionWhenATooLargeEventIsDeadLettered() {
        Map<String, String> huge = new TreeMap<>();
        for (int i = 0; i < 64; i++) {
            huge.put("attribute-" + i, "x".repeat(1024));
        }
        topology.send(upsert("p-1", 9, p -> p.setAttributes(huge)));

        topology.send(priceChanged("p-1", 6, 100L, "EUR"));

        assertThat(topology.deadLetters()).hasSize(1);
        assertThat(topology.row("p-1").version()).isEqualTo(6L);
    }

    @Test
    void shouldRememberNothingWhenAnEventForAProductNeverHeldIsDeadLettered() {
        topology.send(priceChanged("p-2", 9, 100L, "EUR"));
        topology.send(upsert("p-2", 8, p -> p.setCurrency("euro")));
        topology.send("p-3", upsert("p-2", 9));

        topology.send(upsert("p-2", 1));

        assertThat(topology.deadLetters()).hasSize(3);
        assertThat(topology.row("p-2").version()).isEqualTo(1L);
        assertThat(topology.row("p-3")).isNull();
    }
}
