package io.catalogviews.views.index;

import java.util.ArrayList;
import java.util.List;

/**
 * Which sorted index a key belongs to: its sort, and whether it is a per-brand index. Written as the first byte
 * of every index key: {@code sort.ordinal() | (perBrand ? 0x10 : 0)}.
 *
 * <p>Every indexed product has an entry in the plain and the per-brand index of each sort but {@code -price}: a rare
 * brand reads only its own entries. {@code -price} is the {@code price} index read backwards (the listing side
 * reverses runs of equal prices, so ties stay id-ascending): its own entries cost two more index writes per price
 * change and scope. Its tag stays reserved, so that entries written before 2026-12-02 never collide with another
 * kind. Stock is a filter over scanned entries (the entry value carries it): in-stock copies of every index
 * doubled the entries written per change for a filter that most products pass.
 */
public record IndexKind(SortOrder sort, boolean perBrand) {

    private static final List<IndexKind> ALL = all();

    public byte tag() {
        return (byte) (sort.ordinal() | (perBrand ? 0x10 : 0));
    }

    /** All kinds a product is indexed under ({@code -price} is not one: see above). */
    public static List<IndexKind> kinds() {
        return ALL;
    }

    private static List<IndexKind> all() {
        List<IndexKind> kinds = new ArrayList<>(6);
        for (SortOrder sort : SortOrder.values()) {
            if (sort == SortOrder.PRICE_DESC) {
                continue;
            }
            kinds.add(new IndexKind(sort, false));
            kinds.add(new IndexKind(sort, true));
        }
        return List.copyOf(kinds);
    }
}
