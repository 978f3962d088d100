package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.IndexWriter;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.product.ProductListing;
import org.apache.kafka.common.utils.Bytes;

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
            IndexWriter.inView(view).replace(null, RowKeys.productOf(key.get()).value(), old, next);
        }
    };

    /** category-listings: row key = category 0x00 id, value = ListingEntry; the category's indexes. */
    RowDerivation CATEGORY_LISTINGS = (key, before, after, view) -> {
        RowKeys.CategoryRow row = RowKeys.categoryRowOf(key.get());
        IndexWriter.inView(view).replace(row.category().value(), row.id().value(),
                before == null ? null : ListingEntry.decode(before),
                after == null ? null : ListingEntry.decode(after));
    };
}
