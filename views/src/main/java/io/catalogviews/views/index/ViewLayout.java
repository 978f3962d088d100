package io.catalogviews.views.index;

import org.apache.kafka.common.utils.Bytes;

/**
 * How one view store holds its rows and the entries derived from them, side by side in one RocksDB instance:
 * <pre>
 * row key (first byte ≥ 0x20)   → the row (ProductRow)
 * 0x02 [index key]              → IndexValue        (see {@link IndexKeys}; the whole catalog's scope)
 * 0x03 [facet key]              → counters          (see {@link FacetCounters}; the whole catalog's scope)
 * 0x04                          → present while a rebuild has written rows whose entries are not derived yet
 * 0x05 [index key]              → IndexValue        (each category's scope: the key starts with the category)
 * 0x06 [facet key]              → counters          (each category's scope)
 * </pre>
 * Whole-catalog index keys carry no category, so the two scopes need namespaces of their own: a category's bytes
 * could read as a whole-catalog key's sort value. Row keys start with a product id ({@code [A-Za-z0-9._:~-]}), so
 * they never begin with a namespace byte. Only rows go to the changelog; the derived entries are rewritten from each
 * row change, when it is applied and when it is restored, in the same write batch as the row (see the topology's
 * {@code DerivedEntriesStore}). One store per view keeps rows and indexes in one commit: a reader never sees an
 * index entry without its row, and a crash cannot leave them apart.
 */
public final class ViewLayout {

    /** Namespace of the sorted index entries. */
    public static final byte INDEX = 0x02;
    /** Namespace of the facet counters. */
    public static final byte FACETS = 0x03;
    /**
     * The one key of the rebuild marker: written with the first rows of a rows-first rebuild, deleted with the last
     * of their derived entries, so a store that still holds it after a crash is known to lack entries.
     */
    public static final byte REBUILD_MARKER = 0x04;
    /** Namespace of the category scopes' sorted index entries (one scope per category of each product). */
    public static final byte CATEGORY_INDEX = 0x05;
    /** Namespace of the category scopes' facet counters. */
    public static final byte CATEGORY_FACETS = 0x06;

    /** Whether {@code key} is an index entry or a facet counter (derived from the rows). */
    public static boolean isDerivedKey(byte[] key) {
        return key.length > 0 && (key[0] == INDEX || key[0] == FACETS || key[0] == CATEGORY_INDEX
                || key[0] == CATEGORY_FACETS);
    }

    /** Whether {@code key} is a sorted index entry, of any scope (not a counter, a row or a marker). */
    public static boolean isIndexKey(byte[] key) {
        return key.length > 0 && (key[0] == INDEX || key[0] == CATEGORY_INDEX);
    }

    private ViewLayout() {
    }

    /** Whether {@code key} is a row (as opposed to a derived index or facet entry). */
    public static boolean isRowKey(byte[] key) {
        return key.length > 0 && (key[0] & 0xFF) >= 0x20;
    }

    /** {@code key} inside {@code namespace}. */
    public static Bytes inNamespace(byte namespace, Bytes key) {
        byte[] k = key.get();
        byte[] out = new byte[k.length + 1];
        out[0] = namespace;
        System.arraycopy(k, 0, out, 1, k.length);
        return Bytes.wrap(out);
    }
}
