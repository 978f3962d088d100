package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Ownership;

import java.util.List;
import java.util.function.Function;

/**
 * One read over many keys whose data is spread over the instances — the ids of a batch, or the partitions of a
 * whole-catalog query — as a handler gives it to the {@link FanOutRouter}: who holds each key, how to read a group
 * of keys here, and how to ask another instance for a group through its internal route.
 *
 * @param <K> a key: a product id, or a partition number
 * @param <T> the answer for a group of keys
 */
public interface FanOutRead<K, T> {

    /** The view read, for messages ("product view"). */
    String view();

    /**
     * Who holds each key now. Called once per round (and by the callee once per request), so that the round
     * after a "not hosted here" sees fresh metadata.
     */
    Function<K, Ownership> owners();

    /** Reads {@code keys} from this instance's active copies; never throws for a store failure. */
    LocalRead<T> local(List<K> keys);

    /** The internal request that asks another instance for {@code keys}; its 200 answer is read by {@link #decode}. */
    PeerRequest request(List<K> keys);

    /** Reads a 200 answer to {@link #request}; throws (any runtime exception) when it is not one. */
    T decode(List<K> keys, byte[] body);

    /**
     * Whether a standby of a key's partition may answer for an owner that cannot (batch: yes; whole-catalog
     * queries: never stale). When true, {@link #anyCopy} must be implemented.
     */
    default boolean standbyMayAnswer() {
        return false;
    }

    /** Reads {@code keys} from this instance's copies, active or standby, with the largest lag among them. */
    default ReplicaCopy<T> anyCopy(List<K> keys) {
        throw new UnsupportedOperationException(view() + " is never read from a standby");
    }

    /**
     * Whether this instance's own answer comes last in {@link Gathered} (and so in {@code X-Served-By}) rather
     * than first. A batch names the owners it asked before itself; a listing merge starts with its own part.
     */
    default boolean ownAnswerLast() {
        return false;
    }
}
