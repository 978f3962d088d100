package io.catalogviews.topology;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompositeOutcomeListenerTest {

    @Test
    void shouldTellEveryListenerEveryOutcomeWhenComposed() {
        EventCounters first = new EventCounters();
        EventCounters second = new EventCounters();
        EventOutcomeListener both = CompositeOutcomeListener.of(first, second);

        both.applied(ChangeKind.UPSERT, "p-1", 1, 1_000L);
        both.applied(ChangeKind.TOMBSTONE, "p-1", 1, -1L);
        both.stale("p-1", 1);
        both.deadLettered(DeadLetterReason.INVALID);

        for (EventCounters counters : new EventCounters[]{first, second}) {
            assertThat(counters.applied()).isEqualTo(2);
            assertThat(counters.stale()).isEqualTo(1);
            assertThat(counters.deadLetteredFor(DeadLetterReason.INVALID)).isEqualTo(1);
        }
    }

    @Test
    void shouldReturnTheListenerItselfWhenThereIsOnlyOne() {
        EventCounters only = new EventCounters();

        assertThat(CompositeOutcomeListener.of(only)).isSameAs(only);
    }
}
