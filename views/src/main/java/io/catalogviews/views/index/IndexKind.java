package io.catalogviews.views.index;

/**
 * Which sorted index a key belongs to: its sort, whether it is a per-brand index, and whether it holds only
 * products in stock. Written as the first byte of every index key:
 * {@code sort.ordinal() | (perBrand ? 0x10 : 0) | (inStockOnly ? 0x20 : 0)}.
 *
 * <p>Every indexed product has an entry in each of the four sorts of the plain and per-brand indexes, and, when
 * in stock, in the in-stock-only ones too: a rare brand or an in-stock filter reads only matching entries.
 */
public record IndexKind(SortOrder sort, boolean perBrand, boolean inStockOnly) {

    public byte tag() {
        return (byte) (sort.ordinal() | (perBrand ? 0x10 : 0) | (inStockOnly ? 0x20 : 0));
    }

    /** All kinds a product is indexed under, given whether it is in stock. */
    public static java.util.List<IndexKind> kindsFor(boolean inStock) {
        java.util.List<IndexKind> kinds = new java.util.ArrayList<>(16);
        for (SortOrder sort : SortOrder.values()) {
            kinds.add(new IndexKind(sort, false, false));
            kinds.add(new IndexKind(sort, true, false));
            if (inStock) {
                kinds.add(new IndexKind(sort, false, true));
                kinds.add(new IndexKind(sort, true, true));
            }
        }
        return kinds;
    }
}
