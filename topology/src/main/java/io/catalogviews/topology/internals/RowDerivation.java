package io.catalogviews.topology.internals;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.IndexWriter;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.product.ProductListing;
import org.apache.kafka.common.utils.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * How a view store derives its index and facet entries from a change of one of its rows (see
 * {@link io.catalogviews.views.index.ViewLayout}). Called with the row as stored before the change and after it
 * (null for none), both when the topology writes the row and when a restore or a standby replays it.
 */
@FunctionalInterface
interface RowDerivation {

    void apply(Bytes rowKey, byte[] before, byte[] after, EntryStore view);

    /** product-view: row key = product id, value = ProductRow; whole-catalog indexes (no category scope). */
    RowDerivation PRODUCTS = (key, before, after, view) -> {
        ListingEntry old = ProductListing.entryOfRow(before);
        ListingEntry next = ProductListing.entryOfRow(after);
        if (old != null || next != null) {
            IndexWriter.inView(view).replace(null, new String(key.get(), StandardCharsets.UTF_8), old, next);
        }
    };

    /** category-listings: row key = category 0x00 id, value = ListingEntry; the category's indexes. */
    RowDerivation CATEGORY_LISTINGS = (key, before, after, view) -> {
        byte[] k = key.get();
        int zero = 0;
        while (zero < k.length && k[zero] != 0) {
            zero++;
        }
        if (zero == k.length) {
            throw new IllegalArgumentException("category row key without a 0x00 between category and id: "
                    + Bytes.wrap(k));
        }
        String category = new String(k, 0, zero, StandardCharsets.UTF_8);
        String id = new String(k, zero + 1, k.length - zero - 1, StandardCharsets.UTF_8);
        IndexWriter.inView(view).replace(category, id, before == null ? null : ListingEntry.decode(before),
                after == null ? null : ListingEntry.decode(after));
    };
}
