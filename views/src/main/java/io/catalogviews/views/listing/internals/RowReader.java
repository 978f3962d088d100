package io.catalogviews.views.listing.internals;

import io.catalogviews.views.product.ProductRow;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.nio.charset.StandardCharsets;

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

    /**
     * Rows of one product partition ({@link io.catalogviews.views.StoreNames#PRODUCTS}): a deletion marker counts
     * as missing.
     */
    static RowReader productRows(ReadOnlyKeyValueStore<Bytes, byte[]> products) {
        return id -> {
            byte[] row = products.get(Bytes.wrap(id.getBytes(StandardCharsets.US_ASCII)));
            return row == null || ProductRow.isDeletedRow(row) ? null : ProductRow.servingJson(row);
        };
    }
}
