package io.catalogviews.api.listing;

import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The k-way merge of pages read from disjoint partition sets into one page of the same listing.
 *
 * <p>Each input page holds, in listing order ({@link io.catalogviews.views.listing.Position} order), the first
 * {@code limit} items of its partitions after the same position (fewer when no more match there). The merged
 * page is the first {@code limit} items of their union; it has {@code more} when any input page had more, or
 * when items were left over, which is exactly when a further item matches after its last item.
 */
final class PageMerge {

    private PageMerge() {
    }

    static ListingPage merge(List<ListingPage> pages, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be ≥ 1, was " + limit);
        }
        boolean more = false;
        int total = 0;
        PriorityQueue<Head> heads = new PriorityQueue<>(Math.max(1, pages.size()),
                Comparator.comparing((Head h) -> h.item().position()));
        for (ListingPage page : pages) {
            more |= page.more();
            total += page.items().size();
            if (!page.items().isEmpty()) {
                heads.add(new Head(page.items(), 0));
            }
        }
        List<ListingItem> items = new ArrayList<>(Math.min(limit, total));
        while (items.size() < limit && !heads.isEmpty()) {
            Head head = heads.poll();
            items.add(head.item());
            if (head.index() + 1 < head.items().size()) {
                heads.add(new Head(head.items(), head.index() + 1));
            }
        }
        return new ListingPage(items, more || total > items.size());
    }

    private record Head(List<ListingItem> items, int index) {
        ListingItem item() {
            return items.get(index);
        }
    }
}
