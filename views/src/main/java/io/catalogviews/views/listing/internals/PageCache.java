package io.catalogviews.views.listing.internals;

import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.query.IndexCommits;
import io.catalogviews.views.query.KeyPartitioner;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToIntFunction;

/**
 * Pages of a listing kept in memory from the read that assembled them until a commit writes where the page was read:
 * between such commits a page costs no store read. One cache holds whole-catalog pages, another category pages (both
 * merged from the product partitions, from the whole catalog's scope or a category's). A page depends on the index key ranges it
 * examined (from its cursor to the entry after its last item, per range: {@link ListingEngine.PageAnswer}) in each
 * partition it read, and on its items' rows; a commit that writes none of them leaves it kept, so that a churn of
 * price changes elsewhere in the catalog or the category does not empty the cache. Why: a whole-catalog page merges
 * twelve partitions' ranges, which no store layout makes as cheap as PostgreSQL's one index scan, and a category
 * page's seek and iterator steps cross JNI per entry (docs/design.md, "Kept pages").
 *
 * <p>A kept page is never older than what a read of the stores would return. A commit is told before its writes
 * become readable ({@link #committing}): the pages it touches are dropped then, and until it has ended
 * ({@link #committed}) no page read before is kept if the commit touches it. A reader takes the clock before it
 * reads ({@link #stamp}); {@link #keep} keeps its page only if no commit since the stamp (ended or under way)
 * touches it, checked against the recent commits remembered ({@link #HISTORY} of them, {@link #HISTORY_ENTRIES}
 * keys and ids in all; a page read before the oldest is not kept). A partition whose copy changes without a commit (restore, standby update, close) drops every
 * page over it ({@link #reset}). Keeping, committing and resetting hold one lock, so a page is either kept before a
 * commit looks (and dropped by it) or checked against it; reads of kept pages take no lock. Memory is bounded: past
 * {@code maxBytes} of kept JSON everything kept is dropped.
 *
 * <p>Only active copies' reads may use it, and the caller checks that this instance still hosts the partitions
 * before it asks.
 */
public final class PageCache implements IndexCommits.Listener {

    /** Kept JSON in all before the cache starts again empty. */
    public static final long DEFAULT_MAX_BYTES = 32L << 20;
    /** Ended commits remembered for the check of {@link #keep}: a page read over more commits than this is not kept. */
    static final int HISTORY = 256;
    /**
     * Index keys and product ids of the remembered commits, at most: a load commits tens of thousands of keys at a
     * time, and 256 such commits held 320 MB of a 1 GB heap, which then marked itself without end (measured).
     */
    static final long HISTORY_ENTRIES = 100_000;

    /** The partition holding an item's row among the partitions of a page, or null when any of them may. */
    private final ToIntFunction<String> partitionOfItem;
    private final long maxBytes;
    private final Object lock = new Object();
    private final Map<Key, Kept> kept = new ConcurrentHashMap<>();
    /** Guarded by {@link #lock}: commits under way, and the last ended ones (oldest first). */
    private final List<Commit> underWay = new ArrayList<>();
    private final ArrayDeque<Commit> history = new ArrayDeque<>();
    /** Guarded by {@link #lock}; a page read before it is not kept (the history no longer reaches its stamp). */
    private long forgottenUpTo;
    /** Guarded by {@link #lock}: the index keys and product ids held by {@link #history}. */
    private long historyEntries;
    private volatile long clock;
    private long bytes;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    private record Key(ListingQuery query, Set<Integer> partitions) {
    }

    private record Kept(ListingPage page, Set<Integer> partitions, List<ListingEngine.KeyRange> dependsOn,
                        Set<String> ids, long bytes) {
    }

    /** One commit of a partition; {@code touches} null for a reset (touches everything of the partition). */
    private record Commit(long at, int partition, IndexCommits.Touches touches) {
    }

    /**
     * @param partitionOfItem the partition of a page that holds an item's row (the product partition of its id, for
     *                        whole-catalog pages), or null when a commit of any of the page's partitions may write it
     * @param maxBytes        kept JSON in all, at most
     */
    public PageCache(ToIntFunction<String> partitionOfItem, long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be at least 1, not " + maxBytes);
        }
        this.partitionOfItem = partitionOfItem;
        this.maxBytes = maxBytes;
    }

    /** A cache of whole-catalog pages fed by the product partitions' {@code commits}. */
    public static PageCache ofCatalogPages(IndexCommits commits, int partitionCount) {
        PageCache cache = new PageCache(id -> KeyPartitioner.partitionOf(id, partitionCount), DEFAULT_MAX_BYTES);
        commits.listen(cache);
        return cache;
    }

    /** A cache of category pages fed by the product partitions' {@code commits} of the category scopes. */
    public static PageCache ofCategoryPages(IndexCommits commits, int partitionCount) {
        PageCache cache = new PageCache(id -> KeyPartitioner.partitionOf(id, partitionCount), DEFAULT_MAX_BYTES);
        commits.listen(cache);
        return cache;
    }

    /** The clock, to be taken before the stores are read for an answer given to {@link #keep}. */
    public long stamp() {
        return clock;
    }

    /** The kept page of {@code query} over {@code partitions}, or null. */
    public ListingPage get(ListingQuery query, Set<Integer> partitions) {
        Kept k = kept.get(new Key(query, partitions));
        if (k == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        return k.page;
    }

    /** Pages served from memory so far. */
    public long hits() {
        return hits.sum();
    }

    /** Pages that had to be read from the stores so far. */
    public long misses() {
        return misses.sum();
    }

    /** Keeps {@code answer}, read from the stores after {@code stamp} was taken, unless a commit since touches it. */
    public void keep(ListingQuery query, Set<Integer> partitions, long stamp, ListingEngine.PageAnswer answer) {
        Set<Integer> over = Set.copyOf(partitions);
        Set<String> ids = new HashSet<>(answer.page().items().size() * 2);
        long size = 0;
        for (ListingItem item : answer.page().items()) {
            ids.add(item.position().id());
            size += item.json().length + 64L;
        }
        Kept k = new Kept(answer.page(), over, answer.dependsOn(), ids, size);
        synchronized (lock) {
            if (stamp < forgottenUpTo) {
                return;
            }
            for (Commit c : underWay) {
                if (touches(c, k)) {
                    return;
                }
            }
            for (Iterator<Commit> it = history.descendingIterator(); it.hasNext(); ) {
                Commit c = it.next();
                if (c.at <= stamp) {
                    break;
                }
                if (touches(c, k)) {
                    return;
                }
            }
            bytes += size;
            if (bytes > maxBytes) {
                kept.clear();
                bytes = size;
            }
            Kept previous = kept.put(new Key(query, over), k);
            if (previous != null) {
                bytes -= previous.bytes;
            }
        }
    }

    @Override
    public void committing(int partition, IndexCommits.Touches touches) {
        Commit c = new Commit(Long.MAX_VALUE, partition, touches);
        synchronized (lock) {
            underWay.add(c);
            drop(c);
        }
    }

    @Override
    public void committed(int partition) {
        synchronized (lock) {
            for (Iterator<Commit> it = underWay.iterator(); it.hasNext(); ) {
                Commit c = it.next();
                if (c.partition == partition) {
                    it.remove();
                    remember(new Commit(clock + 1, partition, c.touches));
                    break;
                }
            }
        }
    }

    @Override
    public void reset(int partition) {
        synchronized (lock) {
            Commit c = new Commit(clock + 1, partition, null);
            drop(c);
            remember(c);
        }
    }

    /** Guarded by {@link #lock}: appends an ended commit and moves the clock to it. */
    private void remember(Commit c) {
        history.addLast(c);
        historyEntries += entries(c);
        while (history.size() > HISTORY || historyEntries > HISTORY_ENTRIES) {
            Commit forgotten = history.removeFirst();
            historyEntries -= entries(forgotten);
            forgottenUpTo = forgotten.at;
        }
        clock = c.at;
    }

    private static long entries(Commit c) {
        return c.touches == null ? 1 : c.touches.indexKeys().length + c.touches.productIds().size();
    }

    /** Guarded by {@link #lock}: drops every kept page that {@code c} touches. */
    private void drop(Commit c) {
        for (Iterator<Kept> it = kept.values().iterator(); it.hasNext(); ) {
            Kept k = it.next();
            if (touches(c, k)) {
                it.remove();
                bytes -= k.bytes;
            }
        }
    }

    private boolean touches(Commit c, Kept k) {
        if (!k.partitions.contains(c.partition)) {
            return false;
        }
        if (c.touches == null) {
            return true;
        }
        for (ListingEngine.KeyRange range : k.dependsOn) {
            if (c.touches.touchesRange(range.from(), range.to())) {
                return true;
            }
        }
        Set<String> written = c.touches.productIds();
        Set<String> smaller = written.size() < k.ids.size() ? written : k.ids;
        Set<String> larger = smaller == written ? k.ids : written;
        for (String id : smaller) {
            if (larger.contains(id) && (partitionOfItem == null || partitionOfItem.applyAsInt(id) == c.partition)) {
                return true;
            }
        }
        return false;
    }
}
