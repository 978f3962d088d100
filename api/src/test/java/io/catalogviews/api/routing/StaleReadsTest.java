package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
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

    @Test
    void shouldPassOnAStandbysAnswerOnlyWhenMarkedStaleWithinTheLagAndNoServerError() {
        assertThat(stale.accepts(answer(200, "true", "1"))).isTrue();
        assertThat(stale.accepts(answer(404, "true", "0"))).as("a product its copy does not hold").isTrue();
        assertThat(stale.accepts(answer(304, "true", "1"))).as("not modified").isTrue();
        assertThat(stale.accepts(answer(200, null, null))).as("not marked stale").isFalse();
        assertThat(stale.accepts(answer(200, "true", "2"))).as("too far behind").isFalse();
        assertThat(stale.accepts(answer(200, "true", "soon"))).as("unreadable lag").isFalse();
        assertThat(stale.accepts(answer(503, "true", "1"))).as("refused").isFalse();
        assertThat(stale.accepts(answer(500, "true", "1"))).as("failed").isFalse();
    }

    private static ForwardedResponse answer(int status, String staleHeader, String lag) {
        Map<String, List<String>> headers = new java.util.HashMap<>();
        if (staleHeader != null) {
            headers.put("x-stale", List.of(staleHeader));
        }
        if (lag != null) {
            headers.put("x-lag-records", List.of(lag));
        }
        return new ForwardedResponse(status, headers, new byte[0]);
    }
}
