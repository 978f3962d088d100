package io.catalogviews.views.listing.internals;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.SortedMapStore;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.query.QueryFailure;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

class GuardedStoreTest {

    private static final ListingFilter BRANDS = new ListingFilter(null, List.of("a", "ab", "acme"), null, null, null);

    /** A store that fails like a Kafka Streams store whose task moved or closed. */
    private static final class FailingStore implements ReadOnlyKeyValueStore<Bytes, byte[]> {
        private final SortedMapStore<Bytes> delegate;
        private final RuntimeException onCall;
        private final RuntimeException onNext;
        private final int nextsBeforeFailure;
        private int nexts;

        FailingStore(SortedMapStore<Bytes> delegate, RuntimeException onCall, RuntimeException onNext,
                     int nextsBeforeFailure) {
            this.delegate = delegate;
            this.onCall = onCall;
            this.onNext = onNext;
            this.nextsBeforeFailure = nextsBeforeFailure;
        }

        @Override
        public byte[] get(Bytes key) {
            if (onCall != null) {
                throw onCall;
            }
            return delegate.get(key);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
            if (onCall != null) {
                throw onCall;
            }
            KeyValueIterator<Bytes, byte[]> it = delegate.range(from, to);
            return new KeyValueIterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public KeyValue<Bytes, byte[]> next() {
                    if (onNext != null && ++nexts > nextsBeforeFailure) {
                        throw onNext;
                    }
                    return it.next();
                }

                @Override
                public Bytes peekNextKey() {
                    return it.peekNextKey();
                }

                @Override
                public void close() {
                    it.close();
                }
            };
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> all() {
            return range(null, null);
        }

        @Override
        public long approximateNumEntries() {
            return delegate.approximateNumEntries();
        }
    }

    private static TestCatalog catalog() {
        return ListingEngineTest.randomCatalog(3L, 1);
    }

    @Test
    void shouldSayNotHostedHereWhenThePartitionIsNoLongerAnActiveTask() {
        TestCatalog catalog = catalog();
        TestCatalog.Partition p = catalog.partitions.get(0);
        ReadOnlyKeyValueStore<Bytes, byte[]> moved = new GuardedStore<>(new FailingStore(p.catalogIndex,
                new InvalidStateStorePartitionException("The specified partition 4 for store catalog-index does not "
                        + "exist."), null, 0), "catalog-index", 4, () -> "RUNNING");

        StoreUnavailableException e = catchThrowableOfType(StoreUnavailableException.class,
                () -> catalog.engine.page(moved, RowReader.productRows(p.products), null,
                        new ListingQuery(BRANDS, SortOrder.PRICE, 10, null)));

        assertThat(e.failure().kind()).isEqualTo(QueryFailure.Kind.NOT_HOSTED_HERE);
        assertThat(e.failure().message()).contains("catalog-index", "partition 4");
    }

    @Test
    void shouldSayRetryLaterAndCloseEveryIteratorWhenTheStoreClosesDuringAScan() {
        TestCatalog catalog = catalog();
        TestCatalog.Partition p = catalog.partitions.get(0);
        ReadOnlyKeyValueStore<Bytes, byte[]> closing = new GuardedStore<>(new FailingStore(p.catalogIndex, null,
                new InvalidStateStoreException("RocksDB iterator for store catalog-index has closed"), 5),
                "catalog-index", 2, () -> "REBALANCING");

        StoreUnavailableException e = catchThrowableOfType(StoreUnavailableException.class,
                () -> catalog.engine.page(closing, RowReader.productRows(p.products), null,
                        new ListingQuery(BRANDS, SortOrder.PRICE, 50, null)));

        assertThat(e.failure().kind()).isEqualTo(QueryFailure.Kind.RETRY_LATER);
        assertThat(e.failure().message()).contains("catalog-index", "partition 2", "REBALANCING");
        assertThat(p.catalogIndex.openIterators()).isZero();
    }

    @Test
    void shouldSayRetryLaterWhenARowReadFindsTheStoreClosed() {
        TestCatalog catalog = catalog();
        TestCatalog.Partition p = catalog.partitions.get(0);
        GuardedStore<Bytes, byte[]> rows = new GuardedStore<>(new FailingStore(p.products,
                new InvalidStateStoreException("store product-view is not open"), null, 0), "product-view", 0,
                () -> "RUNNING");

        // Sorted by rating, a category's entries carry no JSON: the page reads its items' rows.
        StoreUnavailableException e = catchThrowableOfType(StoreUnavailableException.class,
                () -> catalog.engine.page(p.categoryIndex, RowReader.productRows(rows), "tv",
                        new ListingQuery(new ListingFilter("tv", List.of(), null, null, null), SortOrder.RATING_DESC,
                                10, null)));

        assertThat(e.failure().kind()).isEqualTo(QueryFailure.Kind.RETRY_LATER);
        assertThat(e.failure().message()).contains("product-view", "partition 0");
        assertThat(p.categoryIndex.openIterators()).isZero();
    }
}
