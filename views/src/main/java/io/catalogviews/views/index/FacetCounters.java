package io.catalogviews.views.index;

import org.apache.kafka.common.utils.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Keys and values of the incrementally maintained facet counters, so that an unfiltered facet answer costs
 * O(brands) rather than a scan. Per scope (a category, or "" for the whole catalog of one partition):
 * <pre>
 * scope 0x00         → [total 8][in stock 8]     products in the scope
 * scope 0x00 brand   → [total 8][in stock 8]     products of that brand in the scope
 * </pre>
 * A counter that reaches zero is deleted, so the scope totals list exactly the non-empty categories.
 */
public final class FacetCounters {

    private FacetCounters() {
    }

    public static byte[] scopePrefix(String scope) {
        byte[] s = scope.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(s.length + 1).put(s).put(IndexKeys.TERMINATOR).array();
    }

    public static Bytes totalKey(String scope) {
        return Bytes.wrap(scopePrefix(scope));
    }

    public static Bytes brandKey(String scope, String brand) {
        byte[] p = scopePrefix(scope);
        byte[] b = brand.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(p.length + b.length).put(p).put(b).array());
    }

    /** The scope of a total key (ends with its only 0x00), or null when {@code key} is a brand key. */
    public static String scopeOfTotalKey(byte[] key) {
        int zero = indexOfTerminator(key);
        return zero == key.length - 1 ? new String(key, 0, zero, StandardCharsets.UTF_8) : null;
    }

    /** The brand of a brand key. */
    public static String brandOf(byte[] key) {
        int zero = indexOfTerminator(key);
        return new String(key, zero + 1, key.length - zero - 1, StandardCharsets.UTF_8);
    }

    private static int indexOfTerminator(byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (key[i] == IndexKeys.TERMINATOR) {
                return i;
            }
        }
        throw new IllegalArgumentException("facet key without a scope terminator");
    }

    public static byte[] value(long total, long inStock) {
        return ByteBuffer.allocate(16).putLong(total).putLong(inStock).array();
    }

    public static long total(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value, 0, 8).getLong();
    }

    public static long inStock(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value, 8, 8).getLong();
    }
}
