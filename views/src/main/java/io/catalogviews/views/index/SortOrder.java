package io.catalogviews.views.index;

/**
 * The listing sorts of the contract and their order-preserving encodings.
 *
 * <p>Each sort maps a product to one 64-bit <em>sort value</em> that is written big-endian into index keys and
 * compared as an <b>unsigned</b> number, so that the byte order of keys is the listing order:
 * <ul>
 *   <li>{@code price}: ascending price: {@code price ^ Long.MIN_VALUE} (two's complement to offset binary);</li>
 *   <li>{@code -price}: descending price: {@code ~price ^ Long.MIN_VALUE};</li>
 *   <li>{@code -updatedAt}: newest first: {@code ~updatedAt ^ Long.MIN_VALUE};</li>
 *   <li>{@code -rating}: best rated first, products without a rating last: a rating {@code r} (0..5, −0 read as
 *       0) gives {@code 0x7FFFFFFF - floatToIntBits(r)}, which is 0..0x7FFFFFFF and shrinks as {@code r} grows
 *       (the bits of non-negative floats grow with the value); no rating gives {@code 2^32}, above all of them.</li>
 * </ul>
 * Descending sorts are encoded in the value rather than read backwards, so that ties still come out by id
 * ascending, which follows the sort value in every key.
 */
public enum SortOrder {
    PRICE("price"),
    PRICE_DESC("-price"),
    UPDATED_DESC("-updatedAt"),
    RATING_DESC("-rating");

    static final long NO_RATING = 1L << 32;

    private final String wireName;

    SortOrder(String wireName) {
        this.wireName = wireName;
    }

    /** The contract's name of the sort ({@code sort=} parameter). */
    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException for a name the contract does not define */
    public static SortOrder fromWireName(String name) {
        for (SortOrder s : values()) {
            if (s.wireName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown sort '" + name + "'");
    }

    /** The sort value of a product, to be compared unsigned. */
    public long sortValue(long priceCents, long updatedAtMs, Float rating) {
        return switch (this) {
            case PRICE -> priceCents ^ Long.MIN_VALUE;
            case PRICE_DESC -> ~priceCents ^ Long.MIN_VALUE;
            case UPDATED_DESC -> ~updatedAtMs ^ Long.MIN_VALUE;
            case RATING_DESC -> rating == null ? NO_RATING
                    : 0x7FFF_FFFFL - Float.floatToIntBits(rating == 0f ? 0f : rating);
        };
    }

    /** The sort value of a price, for {@link #PRICE} and {@link #PRICE_DESC} range bounds. */
    public long priceSortValue(long priceCents) {
        return sortValue(priceCents, 0L, null);
    }

    /** Whether price bounds are a key range in this sort (rather than a filter on scanned entries). */
    public boolean isPriceSort() {
        return this == PRICE || this == PRICE_DESC;
    }
}
