package io.catalogviews.api.product;

import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who answers which ids of a batch: the ids grouped by the active owner of their partition, in request order,
 * and the ids whose partition has no active owner now. Pure: decided from metadata, no I/O.
 *
 * @param byOwner   ids per active owner
 * @param ownerless ids whose partition has no active owner (rebalancing, starting)
 */
record BatchPlan(Map<Instance, List<String>> byOwner, List<String> ownerless) {

    static BatchPlan of(List<String> ids, Function<String, Ownership> ownership) {
        Map<Instance, List<String>> byOwner = new LinkedHashMap<>();
        List<String> ownerless = new ArrayList<>();
        for (String id : ids) {
            Optional<Instance> owner = ownership.apply(id).active();
            if (owner.isPresent()) {
                byOwner.computeIfAbsent(owner.get(), o -> new ArrayList<>()).add(id);
            } else {
                ownerless.add(id);
            }
        }
        return new BatchPlan(byOwner, ownerless);
    }

    /** Whether every id is owned by {@code self} (what a forwarded batch must be: it is never forwarded again). */
    boolean allOwnedBy(Instance self) {
        return ownerless.isEmpty() && byOwner.keySet().stream().allMatch(self::equals);
    }

    /**
     * Where the ids of an owner that cannot answer go instead: grouped by the standby that answers for each id's
     * partition ({@link StaleReads#standby}). Empty when any id has no such standby: the whole batch is then
     * refused, never answered shorter.
     */
    static Optional<Map<Instance, List<String>>> byStandby(List<String> ids, Function<String, Ownership> ownership,
                                                           StaleReads stale, boolean fresh, boolean forwarded) {
        Map<Instance, List<String>> out = new LinkedHashMap<>();
        for (String id : ids) {
            Optional<Instance> standby = stale.standby(ownership.apply(id), fresh, forwarded);
            if (standby.isEmpty()) {
                return Optional.empty();
            }
            out.computeIfAbsent(standby.get(), s -> new ArrayList<>()).add(id);
        }
        return Optional.of(out);
    }
}
