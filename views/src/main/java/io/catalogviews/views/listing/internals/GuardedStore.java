package io.catalogviews.views.listing.internals;

import io.catalogviews.views.query.QueryFailure;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.function.Supplier;

/**
 * A read-only store of one partition whose Kafka Streams failures surface as {@link StoreUnavailableException}
 * naming the store and the partition, so that a query over several stores and iterators can answer
 * {@link QueryFailure} without a try block around every call.
 *
 * <p>The stores that {@code KafkaStreams.store(...)} returns find the partition's store lazily, on every call:
 * a partition that is no longer an active task here throws {@link InvalidStateStorePartitionException} from
 * {@code get}/{@code range}/{@code all} ({@link QueryFailure.Kind#NOT_HOSTED_HERE}); a store closed by a
 * rebalance throws {@code InvalidStateStoreException} from the call or from an open iterator
 * ({@link QueryFailure.Kind#RETRY_LATER}), as does any other {@link StreamsException} (RocksDB failures).
 */
public final class GuardedStore<K, V> implements ReadOnlyKeyValueStore<K, V> {

    private final ReadOnlyKeyValueStore<K, V> delegate;
    private final String storeName;
    private final int partition;
    private final Supplier<?> state;

    /**
     * @param state what to say about the instance's state in a retry-later message (for example
     *              {@code streams::state})
     */
    public GuardedStore(ReadOnlyKeyValueStore<K, V> delegate, String storeName, int partition, Supplier<?> state) {
        this.delegate = delegate;
        this.storeName = storeName;
        this.partition = partition;
        this.state = state;
    }

    /** The failure for an exception of a store call ({@code get}, {@code range}, {@code all}, ...). */
    public static QueryFailure classify(RuntimeException e, String storeName, int partition, Supplier<?> state) {
        if (e instanceof InvalidStateStorePartitionException) {
            return QueryFailure.notHostedHere("store " + storeName + " partition " + partition
                    + " is not hosted by this instance");
        }
        return QueryFailure.retryLater("store " + storeName + " partition " + partition + " cannot be queried now ("
                + describe(state) + "): " + e.getMessage());
    }

    private static String describe(Supplier<?> state) {
        try {
            return String.valueOf(state.get());
        } catch (RuntimeException e) {
            return "state unknown";
        }
    }

    private StoreUnavailableException onCall(StreamsException e) {
        return new StoreUnavailableException(classify(e, storeName, partition, state), e);
    }

    private StoreUnavailableException onIteration(StreamsException e) {
        return new StoreUnavailableException(QueryFailure.retryLater("store " + storeName + " partition " + partition
                + " closed during a read (" + describe(state) + "): " + e.getMessage()), e);
    }

    @Override
    public V get(K key) {
        try {
            return delegate.get(key);
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        try {
            return new GuardedIterator(delegate.range(from, to));
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        try {
            return new GuardedIterator(delegate.reverseRange(from, to));
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    @Override
    public KeyValueIterator<K, V> all() {
        try {
            return new GuardedIterator(delegate.all());
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        try {
            return new GuardedIterator(delegate.reverseAll());
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    /** The same guard over the delegate's view at {@code isolationLevel}: a wrapper must not widen what is read. */
    @Override
    public ReadOnlyKeyValueStore<K, V> readOnly(org.apache.kafka.common.IsolationLevel isolationLevel) {
        return new GuardedStore<>(delegate.readOnly(isolationLevel), storeName, partition, state);
    }

    @Override
    public long approximateNumEntries() {
        try {
            return delegate.approximateNumEntries();
        } catch (StreamsException e) {
            throw onCall(e);
        }
    }

    private final class GuardedIterator implements KeyValueIterator<K, V> {
        private final KeyValueIterator<K, V> it;

        GuardedIterator(KeyValueIterator<K, V> it) {
            this.it = it;
        }

        @Override
        public boolean hasNext() {
            try {
                return it.hasNext();
            } catch (StreamsException e) {
                throw onIteration(e);
            }
        }

        @Override
        public KeyValue<K, V> next() {
            try {
                return it.next();
            } catch (StreamsException e) {
                throw onIteration(e);
            }
        }

        @Override
        public K peekNextKey() {
            try {
                return it.peekNextKey();
            } catch (StreamsException e) {
                throw onIteration(e);
            }
        }

        @Override
        public void close() {
            try {
                it.close();
            } catch (StreamsException e) {
                throw onIteration(e);
            }
        }
    }
}
