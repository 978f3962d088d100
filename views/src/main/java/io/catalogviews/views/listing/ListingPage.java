package io.catalogviews.views.listing;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Up to {@code limit} items in listing order, and where the listing goes on.
 *
 * <p>A page either ends the listing, or is full and knows one more item matches ({@code more}), or was cut by
 * its scan budget ({@code scannedTo}): then it holds every match up to the last index entry examined, possibly
 * none and possibly fewer than {@code limit}, and the next page resumes right after that entry, whether or not
 * anything follows it (the scan could not tell).
 *
 * @param more      true exactly when a further item is known to match after the last one (then the page is full);
 *                  false on a page cut by its budget before it found one
 * @param scannedTo on a page whose scan ran out of budget: the position of the last index entry examined (every
 *                  entry up to it was examined, none after it); null when the scan was not cut
 */
public record ListingPage(List<ListingItem> items, boolean more, Position scannedTo) {

    /** A page whose scan was not cut. */
    public ListingPage(List<ListingItem> items, boolean more) {
        this(items, more, null);
    }

    public ListingPage {
        items = List.copyOf(items);
        if (more && scannedTo != null) {
            throw new IllegalArgumentException("a page cut by its scan budget cannot also know a further match");
        }
    }

    /** Whether the scan ran out of budget before the page was complete. */
    public boolean cut() {
        return scannedTo != null;
    }

    /**
     * The position the next page continues after (what a cursor carries), or null exactly when nothing follows:
     * where a cut scan stopped, else the last item when more items match.
     */
    public Position next() {
        if (scannedTo != null) {
            return scannedTo;
        }
        return more ? items.get(items.size() - 1).position() : null;
    }

    /**
     * The first {@code limit} items of the union of sorted pages of disjoint product sets (partitions or
     * instances), each holding the first items of its set after the same position: a k-way merge by
     * {@link Position}.
     *
     * <p>Each input is complete up to its <em>frontier</em>: where its cut scan stopped, its last item when it knows
     * more, or the end of the listing. Only items up to the lowest frontier are known to be the union's next
     * items, so the result holds at most those: if more than {@code limit} of them, the first {@code limit} and
     * {@code more}; else all of them, cut at the lowest frontier when that frontier is a cut scan's (the merged
     * page resumes from there), full with {@code more} when it is a full input's last item, and ending the
     * listing when every input did.
     */
    public static ListingPage merge(List<ListingPage> pages, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("page limit must be at least 1, not " + limit);
        }
        if (pages.size() == 1 && pages.get(0).items().size() <= limit) {
            return pages.get(0); // what the merge below would build again, item by item
        }
        Position frontier = null; // null: every input ends the listing
        boolean frontierIsCut = false;
        for (ListingPage page : pages) {
            Position own = page.cut() ? page.scannedTo() : page.more() ? page.next() : null;
            if (own != null && (frontier == null || own.compareTo(frontier) < 0
                    || (own.compareTo(frontier) == 0 && page.cut()))) {
                frontier = own;
                frontierIsCut = page.cut();
            }
        }
        PriorityQueue<int[]> heads = new PriorityQueue<>(Math.max(1, pages.size()),
                (a, b) -> pages.get(a[0]).items().get(a[1]).position()
                        .compareTo(pages.get(b[0]).items().get(b[1]).position()));
        for (int i = 0; i < pages.size(); i++) {
            if (!pages.get(i).items().isEmpty()) {
                heads.add(new int[] {i, 0});
            }
        }
        List<ListingItem> items = new ArrayList<>(Math.min(limit, 64));
        while (!heads.isEmpty()) {
            int[] head = heads.poll();
            List<ListingItem> source = pages.get(head[0]).items();
            ListingItem item = source.get(head[1]);
            if (frontier != null && item.position().compareTo(frontier) > 0) {
                break; // beyond what every input has examined: a later page gets it
            }
            if (items.size() == limit) {
                return new ListingPage(items, true);
            }
            items.add(item);
            if (++head[1] < source.size()) {
                heads.add(head);
            }
        }
        if (frontier == null) {
            return new ListingPage(items, false);
        }
        return frontierIsCut ? new ListingPage(items, false, frontier) : new ListingPage(items, true);
    }
}
