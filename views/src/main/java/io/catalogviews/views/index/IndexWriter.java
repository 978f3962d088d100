package io.catalogviews.views.index;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Moves one product's index entries and facet counters from its old listing entry to its new one, in one
 * scope (a category, or the whole catalog of a product partition). Keys that stay the same with the same
 * value are not rewritten: a stock change that does not flip "in stock" writes nothing, so index stores do not
 * fill with tombstones at the patch rate.
 */
public final class IndexWriter {

    private final EntryStore index;
    private final EntryStore facets;

    public IndexWriter(EntryStore index, EntryStore facets) {
        this.index = index;
        this.facets = facets;
    }

    /** Index and facets in stores of their own (tests). */
    public IndexWriter(KeyValueStore<Bytes, byte[]> index, KeyValueStore<Bytes, byte[]> facets) {
        this(EntryStore.of(index), EntryStore.of(facets));
    }

    /** The whole catalog's index and facets in their namespaces of a view store (see {@link ViewLayout}). */
    public static IndexWriter inView(EntryStore view) {
        return new IndexWriter(EntryStore.namespace(view, ViewLayout.INDEX),
                EntryStore.namespace(view, ViewLayout.FACETS));
    }

    /** Every category's index and facets in their namespaces of the product view (see {@link ViewLayout}). */
    public static IndexWriter inCategoryScopes(EntryStore view) {
        return new IndexWriter(EntryStore.namespace(view, ViewLayout.CATEGORY_INDEX),
                EntryStore.namespace(view, ViewLayout.CATEGORY_FACETS));
    }

    /**
     * @param category the category scope, or null for the whole-catalog indexes
     * @param old      the entry indexed so far, or null
     * @param next     the entry to index now, or null to remove the product from the scope
     */
    public void replace(String category, String id, ListingEntry old, ListingEntry next) {
        // Kind by kind: keys of two kinds never collide (the kind is the key's first byte), so an old key can only
        // stay as the new key of its own kind. Arrays, not maps: this runs for every change and scope.
        List<IndexKind> kinds = IndexKind.kinds();
        Bytes[] oldKeys = keys(kinds, category, id, old);
        Bytes[] newKeys = keys(kinds, category, id, next);
        for (int k = 0; k < kinds.size(); k++) {
            if (oldKeys != null && (newKeys == null || !oldKeys[k].equals(newKeys[k]))) {
                index.delete(oldKeys[k]);
            }
        }
        if (newKeys != null) {
            byte[] oldPlain = old == null ? null : IndexValue.encode(old);
            byte[] newPlain = IndexValue.encode(next);
            byte[] oldServing = null; // encoded once, for the first kind that serves pages
            byte[] newServing = null;
            for (int k = 0; k < kinds.size(); k++) {
                boolean serves = servesPages(kinds.get(k), category);
                if (serves) {
                    newServing = newServing == null ? IndexValue.encodeServing(next) : newServing;
                }
                byte[] value = serves ? newServing : newPlain;
                if (oldKeys != null && oldKeys[k].equals(newKeys[k])) {
                    if (serves) {
                        oldServing = oldServing == null ? IndexValue.encodeServing(old) : oldServing;
                    }
                    if (Arrays.equals(serves ? oldServing : oldPlain, value)) {
                        continue; // same key, same value: nothing to write
                    }
                }
                index.put(newKeys[k], value);
            }
        }
        if (old != null && next != null && Objects.equals(old.brand(), next.brand())
                && old.inStock() == next.inStock()) {
            return; // every counter stays as it was (a price patch, a stock change that keeps "in stock")
        }
        String scope = category == null ? "" : category;
        // Net change per counter first: a move between brands writes each brand's counter once.
        Map<Bytes, long[]> deltas = new HashMap<>(4);
        if (old != null) {
            add(deltas, FacetCounters.totalKey(scope), -1, old.inStock() ? -1 : 0);
            add(deltas, FacetCounters.brandKey(scope, old.brand()), -1, old.inStock() ? -1 : 0);
        }
        if (next != null) {
            add(deltas, FacetCounters.totalKey(scope), 1, next.inStock() ? 1 : 0);
            add(deltas, FacetCounters.brandKey(scope, next.brand()), 1, next.inStock() ? 1 : 0);
        }
        deltas.forEach((key, d) -> {
            if (d[0] != 0 || d[1] != 0) {
                adjust(key, d[0], d[1]);
            }
        });
    }

    private static void add(Map<Bytes, long[]> deltas, Bytes key, long total, long inStock) {
        long[] d = deltas.computeIfAbsent(key, k -> new long[2]);
        d[0] += total;
        d[1] += inStock;
    }

    /** The key of {@code e} in each of {@code kinds}, in their order; null without an entry. */
    private static Bytes[] keys(List<IndexKind> kinds, String category, String id, ListingEntry e) {
        if (e == null) {
            return null;
        }
        Bytes[] keys = new Bytes[kinds.size()];
        for (int k = 0; k < keys.length; k++) {
            IndexKind kind = kinds.get(k);
            keys[k] = IndexKeys.key(IndexKeys.prefix(kind, category, e.brand()), e.sortValue(kind.sort()), id);
        }
        return keys;
    }

    /**
     * Whether the entries of {@code kind} in {@code category} carry the serving JSON, so that a page reads them
     * instead of rows. In a category: the plain {@code price} and {@code -updatedAt} indexes, so that a page sorted by
     * {@code price}, {@code -price} or {@code -updatedAt} without a brand filter is one range scan and no row read;
     * {@code -updatedAt} entries move on every change of a product (every change sets {@code updatedAt}), so their
     * JSON adds bytes to writes that happen anyway, never a write. Not the per-brand indexes: their JSON was a
     * second copy of the same bytes in every category a product is in, nearly a third of what a change wrote to the
     * store, flushed and compacted again and again, while a brand page is assembled once per change of what it read
     * and then kept (docs/benchmarks.md, step 43); a brand page reads its items' rows, one row-cache lookup each.
     * In the whole catalog: the plain {@code price} index only. A whole-catalog page merges twelve partitions' ranges
     * and reads about {@code limit} plus one entry per partition, so JSON read with them costs less than {@code limit}
     * row reads (37 % of a page's service time at 300 000 products); the {@code -updatedAt} entries would add a JSON
     * per product to the product store's writes for pages asked less often. Not {@code -rating}, whose entries stay
     * where they are on most changes and whose small values are what filtered facets count over.
     */
    static boolean servesPages(IndexKind kind, String category) {
        if (kind.perBrand()) {
            return false;
        }
        return kind.sort() == SortOrder.PRICE || category != null && kind.sort() == SortOrder.UPDATED_DESC;
    }

    private void adjust(Bytes key, long totalDelta, long inStockDelta) {
        byte[] current = facets.get(key);
        long total = FacetCounters.total(current) + totalDelta;
        long inStock = FacetCounters.inStock(current) + inStockDelta;
        if (total <= 0) {
            facets.delete(key);
        } else {
            facets.put(key, FacetCounters.value(total, inStock));
        }
    }
}
