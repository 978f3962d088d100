package io.catalogviews.views.listing;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Up to {@code limit} items in listing order.
 *
 * @param more true exactly when a further item matches after the last one (then the page is full)
 */
public record ListingPage(List<ListingItem> items, boolean more) {

    /**
     * The first {@code limit} items of the union of sorted pages of disjoint product sets (partitions or
     * instances), each holding the first items of its set after the same position: a k-way merge by
     * {@link Position}. The result has {@code more} when any input had more or items were left over.
     */
    public static ListingPage merge(List<ListingPage> pages, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("page limit must be at least 1, not " + limit);
        }
        boolean more = false;
        PriorityQueue<int[]> heads = new PriorityQueue<>(Math.max(1, pages.size()),
                (a, b) -> pages.get(a[0]).items().get(a[1]).position()
                        .compareTo(pages.get(b[0]).items().get(b[1]).position()));
        for (int i = 0; i < pages.size(); i++) {
            ListingPage page = pages.get(i);
            more |= page.more();
            if (!page.items().isEmpty()) {
                heads.add(new int[] {i, 0});
            }
        }
        List<ListingItem> items = new ArrayList<>(Math.min(limit, 64));
        while (!heads.isEmpty()) {
            if (items.size() == limit) {
                more = true;
                break;
            }
            int[] head = heads.poll();
            List<ListingItem> source = pages.get(head[0]).items();
            items.add(source.get(head[1]));
            if (++head[1] < source.size()) {
                heads.add(head);
            }
        }
        return new ListingPage(List.copyOf(items), more);
    }

}
