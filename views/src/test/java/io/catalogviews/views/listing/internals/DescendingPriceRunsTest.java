package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.SortedMapStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class DescendingPriceRunsTest {

    private static final byte[] PREFIX = IndexKeys.prefix(new IndexKind(SortOrder.PRICE, false), "shoes", null);

    record Entry(long price, String id) {
    }

    /**
     * Runs of equal prices from 1 to far beyond {@link DescendingPriceRuns#RUN_LIMIT}, read from random cursors
     * and price bounds: the same entries as a {@code -price} index would list, in the same order, with the same keys.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldListLikeADescendingIndexWhenRunsOfEqualPricesAreShortOrLong(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        SortedMapStore<Bytes> index = new SortedMapStore<>("index");
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            // Few prices, so that some runs are long; one price holds 3 × RUN_LIMIT entries on its own.
            long price = i < 3 * DescendingPriceRuns.RUN_LIMIT ? 500 : 100 + r.nextInt(40) * 10;
            Entry e = new Entry(price, "p-" + r.nextInt(1_000_000));
            if (entries.stream().noneMatch(x -> x.id().equals(e.id()))) {
                entries.add(e);
                index.put(IndexKeys.key(PREFIX, SortOrder.PRICE.priceSortValue(price), e.id()), new byte[] {1});
            }
        }
        List<Entry> expected = entries.stream().sorted(Comparator.comparingLong(Entry::price).reversed()
                .thenComparing(Entry::id)).toList();

        for (int query = 0; query < 200; query++) {
            long min = r.nextBoolean() ? 0 : 100 + r.nextInt(45) * 10;
            long max = r.nextBoolean() ? 1_000 : min + r.nextInt(45) * 10;
            List<Entry> inBounds = expected.stream().filter(e -> e.price() >= min && e.price() <= max).toList();
            int start = inBounds.isEmpty() || r.nextInt(4) == 0 ? -1 : r.nextInt(inBounds.size());
            Entry cursor = start < 0 ? null : inBounds.get(start);

            List<Entry> listed = list(index, min, max, cursor);

            assertThat(listed).as("from %s in [%d, %d]", cursor, min, max)
                    .containsExactlyElementsOf(inBounds.subList(start + 1, inBounds.size()));
            assertThat(index.openIterators()).as("iterators left open").isZero();
        }
    }

    private static List<Entry> list(SortedMapStore<Bytes> index, long min, long max, Entry cursor) {
        long low = SortOrder.PRICE.priceSortValue(min);
        long high = SortOrder.PRICE.priceSortValue(max);
        Bytes skipThrough = null;
        if (cursor != null) {
            high = SortOrder.PRICE.priceSortValue(cursor.price());
            skipThrough = IndexKeys.key(PREFIX, high, cursor.id());
        }
        List<Entry> out = new ArrayList<>();
        try (DescendingPriceRuns runs = new DescendingPriceRuns(index, PREFIX, IndexKeys.lowerBound(PREFIX, low),
                IndexKeys.upperBound(PREFIX, high), skipThrough)) {
            while (runs.hasNext()) {
                KeyValue<Bytes, byte[]> kv = runs.next();
                long sortValue = IndexKeys.sortValueOf(kv.key.get(), PREFIX.length);
                long price = ~sortValue ^ Long.MIN_VALUE;
                assertThat(sortValue).as("-price sort value of %d", price)
                        .isEqualTo(SortOrder.PRICE_DESC.priceSortValue(price));
                out.add(new Entry(price, IndexKeys.idOf(kv.key.get(), PREFIX.length)));
            }
        }
        return out;
    }
}
