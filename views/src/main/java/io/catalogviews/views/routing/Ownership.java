package io.catalogviews.views.routing;

import java.util.List;
import java.util.Optional;

/**
 * Who holds the partition of a key right now.
 *
 * @param partition the input-topic partition of the key
 * @param active    the instance with the active task, empty while metadata is unavailable (rebalancing,
 *                  starting)
 * @param standbys  instances holding a standby replica
 */
public record Ownership(int partition, Optional<Instance> active, List<Instance> standbys) {
}
