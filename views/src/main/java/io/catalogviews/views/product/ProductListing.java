package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.views.index.ListingEntry;

/** What the listings hold of a product: its {@link ListingEntry}, from the product or from its stored row. */
public final class ProductListing {

    private static final byte[] NO_JSON = new byte[0];

    private ProductListing() {
    }

    public static ListingEntry entry(Product p, long version, byte[] json) {
        return new ListingEntry(version, p.getPriceCents(), p.getUpdatedAt().toEpochMilli(), p.getRating(),
                p.getStock(), p.getBrand(), json);
    }

    /**
     * The entry of a stored product row, without its JSON (indexes do not need it), or null for a deletion
     * marker or no row.
     */
    public static ListingEntry entryOfRow(byte[] row) {
        if (row == null || ProductRow.isDeletedRow(row)) {
            return null;
        }
        ProductRow decoded = ProductRow.decode(row);
        return entry(ProductState.decode(decoded.state()), decoded.version(), NO_JSON);
    }
}
