package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class StaleReadsTest {

    private static final Instance SELF = new Instance("self", 1);
    private static final Instance OTHER = new Instance("other", 2);
    private static final Instance OWNER = new Instance("owner", 3);
    private final StaleReads stale = new StaleReads(SELF, 1);

    private static Ownership owned(List<Instance> standbys) {
        return new Ownership(0, Optional.of(OWNER), standbys);
    }

    @Test
    void shouldPreferItsOwnStandbyWhenItHoldsOne() {
        assertThat(stale.standby(owned(List.of(OTHER, SELF)), false, false)).contains(SELF);
    }

    @Test
    void shouldAskTheFirstStandbyWhenItHoldsNone() {
        assertThat(stale.standby(owned(List.of(OTHER)), false, false)).contains(OTHER);
        assertThat(stale.standby(new Ownership(0, Optional.empty(), List.of(OTHER)), false, false)).contains(OTHER);
    }

    @Test
    void shouldNotFailOverWhenFreshIsAskedTheRequestWasForwardedOrThereIsNoStandby() {
        assertThat(stale.standby(owned(List.of(SELF)), true, false)).isEmpty();
        assertThat(stale.standby(owned(List.of(SELF)), false, true)).isEmpty();
        assertThat(stale.standby(owned(List.of()), false, false)).isEmpty();
    }

    @Test
    void shouldAcceptOnlyAKnownLagWithinTheLimitWhenJudgingAReplica() {
        assertThat(stale.closeEnough(0)).isTrue();
        assertThat(stale.closeEnough(1)).isTrue();
        assertThat(stale.closeEnough(2)).isFalse();
        assertThat(stale.closeEnough(-1)).as("unknown lag").isFalse();
    }
}
