package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who answers which keys of a fan-out read: the keys grouped by the active owner of their partition, in the order
 * given, and the keys whose partition has no active owner now. Pure: decided from metadata, no I/O.
 *
 * @param byOwner   keys per active owner, owners in the order of their first key
 * @param ownerless keys whose partition has no active owner (rebalancing, starting)
 */
public record FanOutPlan<K>(Map<Instance, List<K>> byOwner, List<K> ownerless) {

    public static <K> FanOutPlan<K> of(List<K> keys, Function<K, Ownership> ownership) {
        Map<Instance, List<K>> byOwner = new LinkedHashMap<>();
        List<K> ownerless = new ArrayList<>();
        for (K key : keys) {
            Optional<Instance> owner = ownership.apply(key).active();
            if (owner.isPresent()) {
                byOwner.computeIfAbsent(owner.get(), o -> new ArrayList<>()).add(key);
            } else {
                ownerless.add(key);
            }
        }
        return new FanOutPlan<>(byOwner, ownerless);
    }

    /** Whether every key is owned by {@code self} (what a forwarded read must be: it is never forwarded again). */
    public boolean allOwnedBy(Instance self) {
        return ownerless.isEmpty() && byOwner.keySet().stream().allMatch(self::equals);
    }

    /**
     * Where the keys of an owner that cannot answer go instead: grouped by the standby that answers for each key's
     * partition ({@link StaleReads#standby}). Empty when any key has no such standby: the whole read is then
     * refused, never answered shorter.
     */
    public static <K> Optional<Map<Instance, List<K>>> byStandby(List<K> keys, Function<K, Ownership> ownership,
                                                                 StaleReads stale, boolean fresh, boolean forwarded) {
        Map<Instance, List<K>> out = new LinkedHashMap<>();
        for (K key : keys) {
            Optional<Instance> standby = stale.standby(ownership.apply(key), fresh, forwarded);
            if (standby.isEmpty()) {
                return Optional.empty();
            }
            out.computeIfAbsent(standby.get(), s -> new ArrayList<>()).add(key);
        }
        return Optional.of(out);
    }
}
