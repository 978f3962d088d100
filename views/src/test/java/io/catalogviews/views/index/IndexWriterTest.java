package io.catalogviews.views.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The writer the topology uses, checked against writing only the final states into empty stores. */
class IndexWriterTest {

    private static final String[] BRANDS = {"a", "ab", "acme", "\u00fcn\u00ef"};

    @ParameterizedTest
    @ValueSource(strings = {"", "phones"})
    void shouldHoldExactlyTheEntriesAndCountersOfTheLastStatesWhenProductsChangeManyTimes(String scope) {
        String category = scope.isEmpty() ? null : scope;
        SplittableRandom r = new SplittableRandom(17L);
        SortedMapStore<Bytes> index = new SortedMapStore<>("index");
        SortedMapStore<Bytes> facets = new SortedMapStore<>("facets");
        IndexWriter writer = new IndexWriter(index, facets);
        Map<String, ListingEntry> current = new HashMap<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ids.add("p-" + i);
        }
        for (int step = 0; step < 5000; step++) {
            String id = ids.get(r.nextInt(ids.size()));
            ListingEntry old = current.get(id);
            ListingEntry next = r.nextInt(8) == 0 ? null : randomEntry(r, old);
            writer.replace(category, id, old, next);
            if (next == null) {
                current.remove(id);
            } else {
                current.put(id, next);
            }
        }

        SortedMapStore<Bytes> freshIndex = new SortedMapStore<>("fresh-index");
        SortedMapStore<Bytes> freshFacets = new SortedMapStore<>("fresh-facets");
        IndexWriter fresh = new IndexWriter(freshIndex, freshFacets);
        current.forEach((id, e) -> fresh.replace(category, id, null, e));

        assertThat(render(index)).isEqualTo(render(freshIndex));
        assertThat(render(facets)).isEqualTo(render(freshFacets));
        long inStock = current.values().stream().filter(ListingEntry::inStock).count();
        byte[] total = facets.get(FacetCounters.totalKey(scope));
        assertThat(FacetCounters.total(total)).isEqualTo(current.size());
        assertThat(FacetCounters.inStock(total)).isEqualTo(inStock);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "phones"})
    void shouldCarryTheLatestJsonOnlyInTheEntriesThatServePagesWhenAProductChanges(String scope) {
        String category = scope.isEmpty() ? null : scope;
        SortedMapStore<Bytes> index = new SortedMapStore<>("index");
        IndexWriter writer = new IndexWriter(index, new SortedMapStore<>("facets"));
        ListingEntry first = new ListingEntry(1, 4_990, 1_000, 4.5f, 3, "\u00fcn\u00ef", "{\"stock\":3}".getBytes());
        // A stock patch that keeps the product in stock: same keys, same plain values, new JSON.
        ListingEntry patched = new ListingEntry(2, 4_990, 1_000, 4.5f, 4, "\u00fcn\u00ef", "{\"stock\":4}".getBytes());
        writer.replace(category, "p-1", null, first);
        writer.replace(category, "p-1", first, patched);

        assertThat(index.contents()).hasSize(IndexKind.kinds().size());
        for (IndexKind kind : IndexKind.kinds()) {
            byte[] value = index.get(IndexKeys.key(IndexKeys.prefix(kind, category, patched.brand()),
                    patched.sortValue(kind.sort()), "p-1"));
            assertThat(value).as("entry of %s", kind).isNotNull();
            assertThat(IndexValue.priceCents(value)).isEqualTo(4_990);
            assertThat(IndexValue.inStock(value)).isTrue();
            assertThat(IndexValue.brand(value)).isEqualTo(patched.brand());
            // A category's plain price and -updatedAt entries; the whole catalog's plain price entries.
            boolean serving = !kind.perBrand() && (kind.sort() == SortOrder.PRICE
                    || category != null && kind.sort() == SortOrder.UPDATED_DESC);
            if (serving) {
                assertThat(IndexValue.servingJson(value)).as("JSON of %s", kind).isEqualTo(patched.json());
            } else {
                assertThat(IndexValue.servingJson(value)).as("JSON of %s", kind).isNull();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "phones"})
    void shouldWriteOnlyTheEntriesThatChangeAndNoCounterWhenAPatchKeepsBrandAndStockState(String scope) {
        String category = scope.isEmpty() ? null : scope;
        SplittableRandom r = new SplittableRandom(44L);
        for (int round = 0; round < 200; round++) {
            ListingEntry first = randomEntry(r, null);
            ListingEntry next = randomEntry(r, first);
            SortedMapStore<Bytes> index = new SortedMapStore<>("index");
            SortedMapStore<Bytes> facets = new SortedMapStore<>("facets");
            new IndexWriter(index, facets).replace(category, "p-1", null, first);
            Map<Bytes, String> before = render(index);
            List<RecordingEntryStore.Write> indexWrites = new ArrayList<>();
            List<RecordingEntryStore.Write> counterWrites = new ArrayList<>();

            new IndexWriter(RecordingEntryStore.recording(EntryStore.of(index), indexWrites),
                    RecordingEntryStore.recording(EntryStore.of(facets), counterWrites))
                    .replace(category, "p-1", first, next);

            SortedMapStore<Bytes> fresh = new SortedMapStore<>("fresh");
            new IndexWriter(fresh, new SortedMapStore<>("fresh-facets")).replace(category, "p-1", null, next);
            Map<Bytes, String> after = render(fresh);
            List<String> expected = new ArrayList<>();
            before.keySet().stream().filter(k -> !after.containsKey(k)).forEach(k -> expected.add("delete " + k));
            after.forEach((k, v) -> {
                if (!v.equals(before.get(k))) {
                    expected.add("put " + k);
                }
            });
            assertThat(indexWrites).as("round %d: index writes of %s -> %s", round, first, next)
                    .map(RecordingEntryStore.Write::toString).containsExactlyInAnyOrderElementsOf(expected);
            if (first.brand().equals(next.brand()) && first.inStock() == next.inStock()) {
                assertThat(counterWrites).as("round %d: counter writes of %s -> %s", round, first, next).isEmpty();
            }
        }
    }

    private static ListingEntry randomEntry(SplittableRandom r, ListingEntry old) {
        long version = old == null ? 1 : old.version() + 1;
        if (old != null && r.nextBoolean()) { // a patch: price or stock, and updatedAt
            return r.nextBoolean()
                    ? new ListingEntry(version, r.nextLong(0, 100), old.updatedAtMs() + 1, old.rating(), old.stock(),
                    old.brand(), old.json())
                    : new ListingEntry(version, old.priceCents(), old.updatedAtMs() + 1, old.rating(), r.nextInt(3),
                    old.brand(), old.json());
        }
        return new ListingEntry(version, r.nextLong(0, 100), TestValues.randomUpdatedAt(r),
                TestValues.randomRating(r), r.nextInt(3), BRANDS[r.nextInt(BRANDS.length)],
                ("{\"v\":" + version + "}").getBytes());
    }

    private static Map<Bytes, String> render(SortedMapStore<Bytes> store) {
        Map<Bytes, String> out = new HashMap<>();
        store.contents().forEach((k, v) -> out.put(k, Arrays.toString(v)));
        return out;
    }
}
