package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FanOutPlanTest {

    private static final Instance A = new Instance("a", 1);
    private static final Instance B = new Instance("b", 2);
    private static final Instance C = new Instance("c", 3);
    private static final StaleReads STALE = new StaleReads(A, 1);

    /** p1, p4: owned by A (standby B); p2, p5: by B (standby A); p3: by C (standby B); p6: no owner (standby C). */
    private static final Map<String, Ownership> OWNERSHIP = Map.of(
            "p1", new Ownership(1, Optional.of(A), List.of(B)),
            "p4", new Ownership(1, Optional.of(A), List.of(B)),
            "p2", new Ownership(2, Optional.of(B), List.of(A)),
            "p5", new Ownership(2, Optional.of(B), List.of(A)),
            "p3", new Ownership(3, Optional.of(C), List.of(B)),
            "p6", new Ownership(4, Optional.empty(), List.of(C)),
            "p7", new Ownership(5, Optional.of(B), List.of()));

    @Test
    void shouldGroupIdsByActiveOwnerInRequestOrderWhenPlanning() {
        FanOutPlan<String> plan = FanOutPlan.of(List.of("p2", "p1", "p3", "p5", "p6", "p4"), OWNERSHIP::get);

        assertThat(plan.byOwner()).containsExactly(
                Map.entry(B, List.of("p2", "p5")), Map.entry(A, List.of("p1", "p4")), Map.entry(C, List.of("p3")));
        assertThat(plan.ownerless()).containsExactly("p6");
        assertThat(plan.allOwnedBy(A)).isFalse();
        assertThat(FanOutPlan.of(List.of("p1", "p4"), OWNERSHIP::get).allOwnedBy(A)).isTrue();
    }

    @Test
    void shouldSendTheIdsOfAFailedOwnerToTheirStandbysWhenFailingOver() {
        assertThat(FanOutPlan.byStandby(List.of("p2", "p3", "p5", "p6"), OWNERSHIP::get, STALE, false, false))
                .hasValueSatisfying(byStandby -> assertThat(byStandby).containsExactly(
                        Map.entry(A, List.of("p2", "p5")), Map.entry(B, List.of("p3")), Map.entry(C, List.of("p6"))));
    }

    @Test
    void shouldRefuseTheWholeFailoverWhenOneIdHasNoStandbyOrFreshIsAsked() {
        assertThat(FanOutPlan.byStandby(List.of("p2", "p7"), OWNERSHIP::get, STALE, false, false)).isEmpty();
        assertThat(FanOutPlan.byStandby(List.of("p2"), OWNERSHIP::get, STALE, true, false)).isEmpty();
        assertThat(FanOutPlan.byStandby(List.of("p2"), OWNERSHIP::get, STALE, false, true)).isEmpty();
    }
}
