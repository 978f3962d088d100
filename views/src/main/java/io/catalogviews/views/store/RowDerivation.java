package io.catalogviews.views.store;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.IndexWriter;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.product.ProductListing;
import org.apache.kafka.common.utils.Bytes;

import java.util.List;

/**
 * How a view store derives its index and facet entries from a change of one of its rows (see
 * {@link io.catalogviews.views.index.ViewLayout}). Called with the row as stored before the change and after it
 * (null for none), both when the topology writes the row and when a restore or a standby replays it.
 */
@FunctionalInterface
interface RowDerivation {

    void apply(Bytes rowKey, byte[] before, byte[] after, EntryStore view);

    /**
     * product-view: row key = product id, value = ProductRow. The whole catalog's scope, and the scope of each
     * category the product is in: a category it leaves loses its entries, one it enters gains them, one it stays in
     * moves them from the old entry to the new (unchanged keys are not rewritten: {@link IndexWriter#replace}).
     */
    RowDerivation PRODUCTS = (key, before, after, view) -> {
        ProductListing.Listed old = ProductListing.listedOfRow(before);
        ProductListing.Listed next = ProductListing.listedOfRow(after);
        if (old == null && next == null) {
            return;
        }
        String id = RowKeys.productOf(key.get()).value();
        ListingEntry oldEntry = old == null ? null : old.entry();
        ListingEntry nextEntry = next == null ? null : next.entry();
        IndexWriter.inView(view).replace(null, id, oldEntry, nextEntry);
        List<String> was = old == null ? List.of() : old.categories();
        List<String> is = next == null ? List.of() : next.categories();
        IndexWriter scopes = IndexWriter.inCategoryScopes(view);
        for (String category : was) {
            if (!is.contains(category)) {
                scopes.replace(category, id, oldEntry, null);
            }
        }
        for (String category : is) {
            scopes.replace(category, id, was.contains(category) ? oldEntry : null, nextEntry);
        }
    };
}
