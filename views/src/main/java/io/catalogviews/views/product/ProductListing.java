package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.views.index.ListingEntry;

import java.util.ArrayList;
import java.util.List;

/** What the listings hold of a product: its {@link ListingEntry}, from the product or from its stored row. */
public final class ProductListing {

    private ProductListing() {
    }

    public static ListingEntry entry(Product p, long version, byte[] json) {
        return new ListingEntry(version, p.getPriceCents(), p.getUpdatedAt().toEpochMilli(), p.getRating(),
                p.getStock(), p.getBrand(), json);
    }

    /**
     * The entry of a stored product row, with the JSON a read of the row serves (the whole catalog's {@code price}
     * entries carry it: {@code IndexWriter#servesPages}), or null for a deletion marker or no row. A row rendered by
     * an older release is rendered again, as its read would be, so a derived entry never carries an old rendering.
     */
    public static ListingEntry entryOfRow(byte[] row) {
        Listed listed = listedOfRow(row);
        return listed == null ? null : listed.entry();
    }

    /**
     * What a stored product row lists, decoded once: its entry ({@link #entryOfRow}) and its categories, each once in
     * first-seen order; null for a deletion marker or no row.
     */
    public static Listed listedOfRow(byte[] row) {
        if (row == null || ProductRow.isDeletedRow(row)) {
            return null;
        }
        ProductRow decoded = ProductRow.decode(row);
        Product p = ProductState.decode(decoded.state());
        List<String> categories = new ArrayList<>(p.getCategories().size());
        for (CharSequence c : p.getCategories()) {
            String category = c.toString();
            if (!categories.contains(category)) {
                categories.add(category);
            }
        }
        return new Listed(entry(p, decoded.version(), decoded.servingJson()), List.copyOf(categories));
    }

    /** A listed product: its entry and the categories it is listed in. */
    public record Listed(ListingEntry entry, List<String> categories) {
    }
}
