package io.catalogviews.views.streams;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Read handles of the active copies of store partitions, kept from one request to the next while nothing can move
 * them. {@code KafkaStreams.store} copies every stream thread's task sets to find one partition: a quarter of a get
 * by id's CPU in the route (profile of 2026-12-02). A handle is a read-only view over the partition's open RocksDB
 * instance, so it must never outlive that instance, nor serve a copy that stopped being active:
 * <ul>
 *   <li>every change of the Kafka Streams state ({@link #invalidate}, from the application's state listener) drops
 *       them all — tasks move, become standbys or are closed only in rebalances, which pass through
 *       {@code REBALANCING}, and in shutdowns and failures;</li>
 *   <li>a store about to close (a task closed, revived or moved, its thread replaced) drops them all too
 *       ({@link #invalidate}, from the stores' commit feed, before the RocksDB instance is closed);</li>
 *   <li>a handle is kept only when it was resolved while the application was {@code RUNNING} and nothing was dropped
 *       in between, and served only while nothing was dropped since it was kept.</li>
 * </ul>
 * A request that took a handle just before a drop reads through it as it would through one resolved for it alone:
 * the window is the same as Kafka Streams' own handles'. Reads of standby or restoring copies never use it.
 * Without someone to drop them ({@link #perRequest}) nothing is kept and every call resolves its handle.
 */
public final class ActiveStoreHandles {

    private final KafkaStreams streams;
    private final boolean keep;
    private final AtomicLong epoch = new AtomicLong();
    private final Map<Key, Held> held = new ConcurrentHashMap<>();

    private record Key(String store, int partition) {
    }

    private record Held(long epoch, ReadOnlyKeyValueStore<?, ?> store) {
    }

    /** Handles kept between requests: the caller must call {@link #invalidate} as the class comment says. */
    public ActiveStoreHandles(KafkaStreams streams) {
        this(streams, true);
    }

    private ActiveStoreHandles(KafkaStreams streams, boolean keep) {
        this.streams = streams;
        this.keep = keep;
    }

    /** Handles resolved for each call, none kept (nobody drops them). */
    public static ActiveStoreHandles perRequest(KafkaStreams streams) {
        return new ActiveStoreHandles(streams, false);
    }

    /** Drops every handle kept: the state of the application changed, or a store is about to close. */
    public void invalidate() {
        epoch.incrementAndGet();
        held.clear();
    }

    /**
     * The active copy of partition {@code partition} of {@code store}; throws what {@code KafkaStreams.store}
     * throws when there is none here now.
     */
    @SuppressWarnings("unchecked")
    <K> ReadOnlyKeyValueStore<K, byte[]> active(String store, int partition) {
        long now = epoch.get();
        Key key = new Key(store, partition);
        Held h = held.get(key);
        if (h != null && h.epoch == now) {
            return (ReadOnlyKeyValueStore<K, byte[]>) h.store;
        }
        boolean running = streams.state() == KafkaStreams.State.RUNNING;
        ReadOnlyKeyValueStore<K, byte[]> resolved = streams.store(StoreQueryParameters
                .fromNameAndType(store, new PinnedStoreType<K, byte[]>())
                .withPartition(partition));
        if (keep && running && streams.state() == KafkaStreams.State.RUNNING && epoch.get() == now) {
            held.put(key, new Held(now, resolved));
        }
        return resolved;
    }
}
