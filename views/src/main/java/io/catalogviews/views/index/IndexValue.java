package io.catalogviews.views.index;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of an index entry: what filters and facets read without touching the row, and for the entries that
 * serve pages without rows, the product's serving JSON.
 * <pre>
 * plain:   [flags 1][priceCents 8][brand UTF-8 (rest)]
 * serving: [flags 1][priceCents 8][brand length 2][brand UTF-8][JSON (rest)]
 * flags:   bit 0 = in stock, bit 1 = serving (JSON follows)
 * </pre>
 * Entries written before serving entries existed have bit 1 clear and read as plain entries, so a store written by
 * an older version serves the same answers (through the rows) until its entries are rewritten.
 */
public final class IndexValue {

    private static final int IN_STOCK = 1;
    private static final int SERVING = 2;
    private static final int PRICE_END = 9;

    private IndexValue() {
    }

    /** A plain value: flags, price and brand. */
    public static byte[] encode(ListingEntry e) {
        byte[] b = e.brand().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(PRICE_END + b.length).put(flags(e, false)).putLong(e.priceCents()).put(b).array();
    }

    /** A serving value: the plain fields plus the entry's serving JSON, so that a page needs no row read. */
    public static byte[] encodeServing(ListingEntry e) {
        byte[] b = e.brand().getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xFFFF) {
            // The contract's brands are far shorter; a longer one must fail the derivation, not wrap the length.
            throw new IllegalArgumentException("brand of " + b.length + " bytes is too long for an index value");
        }
        byte[] json = e.json();
        return ByteBuffer.allocate(PRICE_END + 2 + b.length + json.length).put(flags(e, true))
                .putLong(e.priceCents()).putShort((short) b.length).put(b).put(json).array();
    }

    private static byte flags(ListingEntry e, boolean serving) {
        return (byte) ((e.inStock() ? IN_STOCK : 0) | (serving ? SERVING : 0));
    }

    public static boolean inStock(byte[] value) {
        return (value[0] & IN_STOCK) != 0;
    }

    public static long priceCents(byte[] value) {
        return ByteBuffer.wrap(value, 1, 8).getLong();
    }

    public static String brand(byte[] value) {
        if ((value[0] & SERVING) == 0) {
            return new String(value, PRICE_END, value.length - PRICE_END, StandardCharsets.UTF_8);
        }
        return new String(value, PRICE_END + 2, brandLength(value), StandardCharsets.UTF_8);
    }

    /** The serving JSON the entry carries, or null for a plain entry (its row holds the JSON). */
    public static byte[] servingJson(byte[] value) {
        if ((value[0] & SERVING) == 0) {
            return null;
        }
        return Arrays.copyOfRange(value, PRICE_END + 2 + brandLength(value), value.length);
    }

    private static int brandLength(byte[] value) {
        return ((value[PRICE_END] & 0xFF) << 8) | (value[PRICE_END + 1] & 0xFF);
    }
}
