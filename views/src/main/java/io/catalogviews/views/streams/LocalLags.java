package io.catalogviews.views.streams;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;

import java.util.HashMap;
import java.util.Map;

/**
 * How many changelog records each local copy (active or standby) of a store's partitions is behind, from
 * {@link KafkaStreams#allLocalStorePartitionLags()} (KIP-535). That call asks the broker for the changelogs' end
 * offsets, so read it once per query, not once per key. {@value #UNKNOWN} means unknown: the caller must treat it
 * as not provably close enough.
 */
final class LocalLags {

    static final long UNKNOWN = -1;

    private LocalLags() {
    }

    /** Lag per local partition of {@code store}; a partition missing from the map has no known lag. */
    static Map<Integer, Long> of(KafkaStreams streams, String store) {
        Map<Integer, Long> out = new HashMap<>();
        try {
            Map<Integer, LagInfo> lags = streams.allLocalStorePartitionLags().get(store);
            if (lags != null) {
                lags.forEach((partition, info) -> out.put(partition, info.offsetLag()));
            }
        } catch (RuntimeException e) {
            // Not running, or the broker did not answer: every lag unknown.
        }
        return out;
    }

    /** The lag of one local partition of {@code store}, or {@value #UNKNOWN}. */
    static long of(KafkaStreams streams, String store, int partition) {
        return of(streams, store).getOrDefault(partition, UNKNOWN);
    }

    /** The largest lag of {@code partitions}, or {@value #UNKNOWN} when any of them is unknown. */
    static long max(Map<Integer, Long> lags, Iterable<Integer> partitions) {
        long max = 0;
        for (int partition : partitions) {
            Long lag = lags.get(partition);
            if (lag == null || lag < 0) {
                return UNKNOWN;
            }
            max = Math.max(max, lag);
        }
        return max;
    }
}
