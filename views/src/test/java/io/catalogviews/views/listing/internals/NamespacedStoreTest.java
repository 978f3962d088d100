package io.catalogviews.views.listing.internals;

import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.ids.ProductId;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.IndexWriter;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.index.SortedMapStore;
import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NamespacedStoreTest {

    private final SortedMapStore<Bytes> view = new SortedMapStore<>("product-view");
    private final SortedMapStore<Bytes> separateIndex = new SortedMapStore<>("index");
    private final SortedMapStore<Bytes> separateFacets = new SortedMapStore<>("facets");

    private static ListingEntry entry(long price, String brand, int stock) {
        return new ListingEntry(1, price, 1_700_000_000_000L + price, 4.5f, stock, brand, new byte[0]);
    }

    /** The same products written into one view store (namespaces) and into stores of their own. */
    private void write(String id, ListingEntry e) {
        view.put(RowKeys.product(new ProductId(id)), ("row of " + id).getBytes(StandardCharsets.UTF_8));
        IndexWriter.inView(EntryStore.of(view)).replace(null, id, null, e);
        new IndexWriter(separateIndex, separateFacets).replace(null, id, null, e);
    }

    private static List<KeyValue<Bytes, byte[]>> drain(KeyValueIterator<Bytes, byte[]> it) {
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static List<String> keys(List<KeyValue<Bytes, byte[]>> entries) {
        return entries.stream().map(kv -> kv.key.toString()).toList();
    }

    @Test
    void shouldReadEachNamespaceLikeAStoreOfItsOwnWhenRowsAndEntriesShareOneStore() {
        write("p-1", entry(500, "acme", 3));
        write("p-2", entry(100, "zeta", 0));
        write("~last", entry(900, "acme", 1));

        assertThat(keys(drain(NamespacedStore.index(view).all())))
                .containsExactlyElementsOf(keys(drain(separateIndex.all())));
        assertThat(keys(drain(NamespacedStore.facets(view).all())))
                .containsExactlyElementsOf(keys(drain(separateFacets.all())));
        Bytes anyIndexKey = separateIndex.contents().firstKey();
        assertThat(NamespacedStore.index(view).get(anyIndexKey)).isEqualTo(separateIndex.get(anyIndexKey));
    }

    @Test
    void shouldNeverReturnRowsOrAnotherNamespaceWhenARangeIsOpenOrWide() {
        write("p-1", entry(500, "acme", 3));

        List<KeyValue<Bytes, byte[]>> wide = drain(NamespacedStore.index(view).range(Bytes.wrap(new byte[0]),
                Bytes.wrap(new byte[]{(byte) 0xFF, (byte) 0xFF})));

        assertThat(keys(wide)).containsExactlyElementsOf(keys(drain(separateIndex.all())));
        assertThat(drain(NamespacedStore.facets(view).range(null, null))).hasSize(separateFacets.size());
        assertThat(ViewLayout.isRowKey(RowKeys.product(new ProductId("p-1")).get())).isTrue();
        assertThat(view.openIterators()).isZero();
    }

    @Test
    void shouldBoundARangeInsideTheNamespaceWhenBoundsAreGiven() {
        for (int i = 0; i < 20; i++) {
            write("p-" + (char) ('a' + i), entry(100L * i, "acme", 1));
        }
        List<Bytes> all = drain(separateIndex.all()).stream().map(kv -> kv.key).toList();
        Bytes from = all.get(5);
        Bytes to = all.get(12);

        assertThat(keys(drain(NamespacedStore.index(view).range(from, to))))
                .containsExactlyElementsOf(keys(drain(separateIndex.range(from, to))))
                .hasSize(8);
    }
}
