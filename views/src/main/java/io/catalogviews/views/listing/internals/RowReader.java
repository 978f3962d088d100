package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.product.ProductRow;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where a listing finds the serving JSON of the products its index entries point at.
 *
 * <p>An index entry whose row is missing is skipped by the listing (the index and its rows are written in one
 * batch, so this is a defence, not an expected case).
 */
@FunctionalInterface
public interface RowReader {

    /** The serving JSON of product {@code id}, or null when there is no live row for it. */
    byte[] json(String id);

    /**
     * Rows of one category partition ({@link io.catalogviews.views.StoreNames#CATEGORY_LISTINGS}): key = category
     * 0x00 id, value = {@link ListingEntry}.
     */
    static RowReader categoryRows(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String category) {
        byte[] prefix = categoryRowPrefix(category);
        return id -> {
            byte[] entry = rows.get(categoryRowKey(prefix, id));
            return entry == null ? null : ListingEntry.jsonOf(entry);
        };
    }

    /**
     * Rows of one product partition ({@link io.catalogviews.views.StoreNames#PRODUCTS}): a deletion marker counts
     * as missing.
     */
    static RowReader productRows(ReadOnlyKeyValueStore<Bytes, byte[]> products) {
        return id -> {
            byte[] row = products.get(productKey(id));
            return row == null || ProductRow.isDeletedRow(row) ? null : ProductRow.jsonOf(row);
        };
    }

    /** The key of a product row: its id in UTF-8. */
    static Bytes productKey(String id) {
        return Bytes.wrap(id.getBytes(StandardCharsets.UTF_8));
    }

    /** The key of a category row: category UTF-8, 0x00, id UTF-8. */
    static Bytes categoryRowKey(String category, String id) {
        return categoryRowKey(categoryRowPrefix(category), id);
    }

    private static byte[] categoryRowPrefix(String category) {
        byte[] c = category.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(c.length + 1).put(c).put((byte) 0).array();
    }

    private static Bytes categoryRowKey(byte[] prefix, String id) {
        byte[] i = id.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + i.length).put(prefix).put(i).array());
    }
}
