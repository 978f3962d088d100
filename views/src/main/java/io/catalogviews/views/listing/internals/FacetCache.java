package io.catalogviews.views.listing.internals;

import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.query.CategoryCommits;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The facets of a category, kept in memory from the read that counted them (over the product partitions, whose
 * category scopes hold it) until a commit changes the category: between two such commits a facet request costs no
 * store read. Elasticsearch's shard request cache does the same
 * with aggregations, dropped at each refresh; here the unit is the category, so a commit that touches other
 * categories drops nothing.
 *
 * <p>A kept answer is never older than what a read of the store would return. Every change is stamped with a clock:
 * a commit marks its categories as changing <em>before</em> the store makes the rows readable ({@link #committing}:
 * nothing kept for them is served or kept from then on) and stamps them after ({@link #committed}); a partition
 * whose copy changes without a commit (restore, standby update, close) is stamped as a whole ({@link #reset}). A
 * reader takes the clock before it reads the store ({@link #stamp}) and its answer is served later only if no
 * change of its category or of one of the partitions it read was stamped since. Memory is bounded: past {@code
 * maxWeight} (one per kept answer plus one per brand in it) everything kept is dropped.
 *
 * <p>Only the active copies' reads may use it (a standby's copy changes by restores, which the caller does not see
 * here), and the caller checks that this instance still hosts the partitions before it asks.
 */
public final class FacetCache implements CategoryCommits.Listener {

    /** What is kept in all before the cache starts again empty: answers plus their brands. */
    public static final long DEFAULT_MAX_WEIGHT = 200_000;
    /** Categories whose last change is remembered; past it, every answer kept before now is dropped at once. */
    static final int MAX_REMEMBERED_CATEGORIES = 100_000;
    /** A category whose commit is under way: nothing of it is served or kept. */
    private static final long CHANGING = Long.MAX_VALUE;

    private final AtomicLong clock = new AtomicLong();
    /** Stamps older than this are void (memory bound of the remembered categories). */
    private volatile long floor;
    private final Map<String, Long> changedAt = new ConcurrentHashMap<>();
    private final AtomicLongArray resetAt;
    private final Map<ListingFilter, Kept> kept = new ConcurrentHashMap<>();
    private final AtomicLong weight = new AtomicLong();
    private final long maxWeight;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    private record Kept(long stamp, Set<Integer> partitions, FacetCounts facets) {
    }

    /**
     * @param partitions the product view's partition count
     * @param maxWeight  kept answers plus their brands, at most
     */
    public FacetCache(int partitions, long maxWeight) {
        if (partitions < 1 || maxWeight < 1) {
            throw new IllegalArgumentException("partitions and maxWeight must be at least 1, not " + partitions
                    + " and " + maxWeight);
        }
        this.resetAt = new AtomicLongArray(partitions);
        this.maxWeight = maxWeight;
    }

    /** A cache fed by {@code commits}. */
    public static FacetCache listeningTo(CategoryCommits commits, int partitions) {
        FacetCache cache = new FacetCache(partitions, DEFAULT_MAX_WEIGHT);
        commits.listen(cache);
        return cache;
    }

    /** The clock, to be taken before the store is read for an answer given to {@link #keep}. */
    public long stamp() {
        return clock.get();
    }

    /**
     * The kept facets of {@code filter} read over {@code partitions}, or null when none are kept or they may be old.
     */
    public FacetCounts get(ListingFilter filter, Set<Integer> partitions) {
        Kept k = kept.get(filter);
        if (k != null && k.partitions.equals(partitions) && fresh(k.stamp, filter.category(), partitions)) {
            hits.increment();
            return k.facets;
        }
        misses.increment();
        return null;
    }

    /** Answers served from memory so far. */
    public long hits() {
        return hits.sum();
    }

    /** Answers that had to be counted from the store so far. */
    public long misses() {
        return misses.sum();
    }

    /**
     * Keeps {@code facets}, read from {@code partitions} after {@code stamp} was taken, unless the data changed since.
     */
    public void keep(ListingFilter filter, Set<Integer> partitions, long stamp, FacetCounts facets) {
        if (!fresh(stamp, filter.category(), partitions)) {
            return;
        }
        long w = 1 + facets.brands().size();
        if (weight.addAndGet(w) > maxWeight) {
            kept.clear();
            weight.set(w);
        }
        kept.put(filter, new Kept(stamp, Set.copyOf(partitions), facets));
    }

    private boolean fresh(long stamp, String category, Set<Integer> partitions) {
        Long changed = changedAt.get(category);
        if (stamp < floor || (changed != null && stamp < changed)) {
            return false;
        }
        for (int partition : partitions) {
            if (stamp < resetAt(partition)) {
                return false;
            }
        }
        return true;
    }

    private long resetAt(int partition) {
        return partition < resetAt.length() ? resetAt.get(partition) : CHANGING;
    }

    /** Before a commit of {@code categories} makes them readable: nothing of them is served until it is stamped. */
    @Override
    public void committing(int partition, Set<String> categories) {
        for (String category : categories) {
            changedAt.put(category, CHANGING);
        }
    }

    @Override
    public void committed(int partition, Set<String> categories) {
        long now = clock.incrementAndGet();
        if (changedAt.size() > MAX_REMEMBERED_CATEGORIES) {
            forgetCategories(now);
        }
        for (String category : categories) {
            changedAt.put(category, now);
        }
    }

    /** Keeps the memory of changes bounded: every answer stamped before {@code now} becomes void at once. */
    private void forgetCategories(long now) {
        floor = now;
        changedAt.values().removeIf(at -> at != CHANGING);
        kept.clear();
        weight.set(0);
    }

    @Override
    public void reset(int partition) {
        long now = clock.incrementAndGet();
        if (partition < resetAt.length()) {
            resetAt.set(partition, now);
        } else {
            floor = now;
        }
        kept.values().removeIf(k -> k.partitions.contains(partition));
    }
}
