package io.catalogviews.views.routing;

import java.util.List;
import java.util.Map;

/**
 * What this instance knows of the deployment (contract: {@code GET /v1/cluster}).
 *
 * @param self      this instance
 * @param selfState this instance's Kafka Streams state (CREATED, REBALANCING, RUNNING, …)
 * @param instances every instance in the current metadata, with the partitions it holds per store
 * @param lag       for each store and local partition (active or standby), records this copy is behind its
 *                  changelog: restoration progress of an active task, or staleness of a standby
 * @param caughtUp  true when this instance's active tasks have no input backlog
 */
public record ClusterState(Instance self, String selfState, List<Member> instances,
                           Map<String, Map<Integer, Long>> lag, boolean caughtUp) {

    /** One instance and the partitions it holds, per store, as active and as standby. */
    public record Member(Instance instance, Map<String, List<Integer>> active, Map<String, List<Integer>> standby) {
    }
}
