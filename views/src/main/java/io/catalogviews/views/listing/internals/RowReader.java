package io.catalogviews.views.listing.internals;

import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.store.MultiGetStore;
import io.catalogviews.views.store.RowKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where a listing finds the serving JSON of the products its index entries point at.
 *
 * <p>The ids come from index keys, which were written from checked ids only; they are used as row keys as they
 * are. An index entry whose row is missing is skipped by the listing (the index and its rows are written in one
 * batch, so this is a defence, not an expected case).
 */
@FunctionalInterface
public interface RowReader {

    /** The serving JSON of product {@code id} (taken from an index key), or null when there is no live row. */
    byte[] json(String id);

    /** {@link #json} of each id, in their order: in one read of the store where it can read many keys at once. */
    default List<byte[]> jsons(List<String> ids) {
        List<byte[]> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            out.add(json(id));
        }
        return out;
    }

    /**
     * Rows of one category partition ({@link io.catalogviews.views.StoreNames#CATEGORY_LISTINGS}): key = category
     * 0x00 id, value = {@link ListingEntry}.
     */
    static RowReader categoryRows(ReadOnlyKeyValueStore<Bytes, byte[]> rows, CategoryName category) {
        byte[] prefix = RowKeys.categoryRowPrefix(category);
        return new StoreRows(rows, id -> {
            byte[] i = id.getBytes(StandardCharsets.US_ASCII);
            byte[] key = new byte[prefix.length + i.length];
            System.arraycopy(prefix, 0, key, 0, prefix.length);
            System.arraycopy(i, 0, key, prefix.length, i.length);
            return Bytes.wrap(key);
        }, ListingEntry::jsonOf);
    }

    /**
     * Rows of one product partition ({@link io.catalogviews.views.StoreNames#PRODUCTS}): a deletion marker counts
     * as missing.
     */
    static RowReader productRows(ReadOnlyKeyValueStore<Bytes, byte[]> products) {
        return new StoreRows(products, id -> Bytes.wrap(id.getBytes(StandardCharsets.US_ASCII)),
                row -> ProductRow.isDeletedRow(row) ? null : ProductRow.servingJson(row));
    }

    /** Rows of a store: the row key of an id, and the serving JSON of a stored row (null: not a live row). */
    record StoreRows(ReadOnlyKeyValueStore<Bytes, byte[]> store, Function<String, Bytes> keyOf,
                     Function<byte[], byte[]> jsonOf) implements RowReader {

        @Override
        public byte[] json(String id) {
            byte[] row = store.get(keyOf.apply(id));
            return row == null ? null : jsonOf.apply(row);
        }

        @Override
        public List<byte[]> jsons(List<String> ids) {
            List<Bytes> keys = new ArrayList<>(ids.size());
            for (String id : ids) {
                keys.add(keyOf.apply(id));
            }
            List<byte[]> rows = MultiGetStore.getAll(store, keys);
            List<byte[]> out = new ArrayList<>(rows.size());
            for (byte[] row : rows) {
                out.add(row == null ? null : jsonOf.apply(row));
            }
            return out;
        }
    }
}
