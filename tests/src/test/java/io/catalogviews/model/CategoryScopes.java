package io.catalogviews.model;

import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.IndexValue;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the category scopes of a product-view store list: for each category, each product its plain {@code price}
 * index holds (one entry per product listed), with the serving JSON that entry carries. Read from the raw store, key
 * by key, so that a test sees what is there rather than what a listing would choose to show.
 */
final class CategoryScopes {

    private CategoryScopes() {
    }

    /** "category id" → the serving JSON of its entry in the category's {@code price} index. */
    static Map<String, byte[]> listed(ReadOnlyKeyValueStore<Bytes, byte[]> products) {
        byte tag = new IndexKind(SortOrder.PRICE, false).tag();
        Map<String, byte[]> out = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = products.range(Bytes.wrap(new byte[] {ViewLayout.CATEGORY_INDEX}),
                Bytes.wrap(new byte[] {ViewLayout.CATEGORY_INDEX, (byte) 0xFF}))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (key.length < 3 || key[1] != tag) {
                    continue;
                }
                // Without the namespace byte the prefix (tag, category, 0x00) ends at the terminator's index.
                String id = IndexKeys.idOf(java.util.Arrays.copyOfRange(key, 1, key.length),
                        IndexKeys.categoryEnd(key, 1));
                out.put(IndexKeys.categoryOf(key, 1) + " " + id, IndexValue.servingJson(kv.value));
            }
        }
        return out;
    }
}
