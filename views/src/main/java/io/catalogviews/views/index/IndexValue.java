package io.catalogviews.views.index;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The value of an index entry: what filters and facets read without touching the row.
 * Layout: {@code [flags 1: bit 0 = in stock][priceCents 8][brand UTF-8 (rest)]}.
 */
public final class IndexValue {

    private IndexValue() {
    }

    public static byte[] encode(ListingEntry e) {
        byte[] b = e.brand().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(9 + b.length).put((byte) (e.inStock() ? 1 : 0)).putLong(e.priceCents()).put(b)
                .array();
    }

    public static boolean inStock(byte[] value) {
        return (value[0] & 1) != 0;
    }

    public static long priceCents(byte[] value) {
        return ByteBuffer.wrap(value, 1, 8).getLong();
    }

    public static String brand(byte[] value) {
        return new String(value, 9, value.length - 9, StandardCharsets.UTF_8);
    }
}
