package io.catalogviews.views.index;

import org.apache.kafka.common.utils.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Byte-ordered keys of the sorted indexes. Layout:
 * <pre>
 * [kind tag: 1 byte] [scope] [sort value: 8 bytes, big-endian, compared unsigned] [product id: UTF-8]
 * scope = category 0x00          (category indexes)        | empty             (whole-catalog indexes)
 *       + brand 0x00 when the kind is per-brand
 * </pre>
 * Ordering rules, which a range scan relies on:
 * <ol>
 *   <li>Keys of one (kind, scope) are contiguous: categories ({@code [a-z0-9-]}) and brands (no control
 *       characters) never contain 0x00, so the terminator ends them and {@code phone} never scans into
 *       {@code phones}.</li>
 *   <li>Within a scope, keys sort by sort value (see {@link SortOrder}), then by id bytes: ties by id ascending
 *       in UTF-8 byte order, as the contract wants, for every sort.</li>
 *   <li>Whole-catalog keys have no category in their scope, so they must live in a store of their own
 *       ({@code catalog-index}), never beside category keys.</li>
 *   <li>Ids use only ASCII ({@code [A-Za-z0-9._:~-]}), so {@code prefix + value + 0xFF} is above every key with
 *       that prefix and value: the inclusive upper bound of a range.</li>
 * </ol>
 */
public final class IndexKeys {

    static final byte TERMINATOR = 0x00;

    private IndexKeys() {
    }

    /** The scope prefix: kind tag, category (null for whole-catalog) and brand (for per-brand kinds). */
    public static byte[] prefix(IndexKind kind, String category, String brand) {
        byte[] c = category == null ? null : category.getBytes(StandardCharsets.UTF_8);
        byte[] b = kind.perBrand() ? brand.getBytes(StandardCharsets.UTF_8) : null;
        int length = 1 + (c == null ? 0 : c.length + 1) + (b == null ? 0 : b.length + 1);
        ByteBuffer buf = ByteBuffer.allocate(length).put(kind.tag());
        if (c != null) {
            buf.put(c).put(TERMINATOR);
        }
        if (b != null) {
            buf.put(b).put(TERMINATOR);
        }
        return buf.array();
    }

    public static Bytes key(byte[] prefix, long sortValue, String id) {
        byte[] i = id.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + 8 + i.length).put(prefix).putLong(sortValue).put(i)
                .array());
    }

    /** The smallest key with this prefix and a sort value ≥ {@code sortValue}. */
    public static Bytes lowerBound(byte[] prefix, long sortValue) {
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(sortValue).array());
    }

    /** Above every key with this prefix and a sort value ≤ {@code sortValue} (inclusive upper bound). */
    public static Bytes upperBound(byte[] prefix, long sortValue) {
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + 9).put(prefix).putLong(sortValue).put((byte) 0xFF)
                .array());
    }

    /** The first key strictly after {@code (sortValue, id)}: the same key with a 0x00 byte appended. */
    public static Bytes after(byte[] prefix, long sortValue, String id) {
        byte[] key = key(prefix, sortValue, id).get();
        return Bytes.wrap(Arrays.copyOf(key, key.length + 1));
    }

    /**
     * Where the category of a category index key ends (the index of its 0x00 terminator), the key's kind tag standing
     * at {@code tagAt}: the category is the bytes from {@code tagAt + 1} up to it.
     */
    public static int categoryEnd(byte[] key, int tagAt) {
        int end = tagAt + 1;
        while (end < key.length && key[end] != TERMINATOR) {
            end++;
        }
        return end;
    }

    /** The category of a category index key whose kind tag stands at {@code tagAt} ({@link #categoryEnd}). */
    public static String categoryOf(byte[] key, int tagAt) {
        return new String(key, tagAt + 1, categoryEnd(key, tagAt) - tagAt - 1, StandardCharsets.UTF_8);
    }

    public static long sortValueOf(byte[] key, int prefixLength) {
        return ByteBuffer.wrap(key, prefixLength, 8).getLong();
    }

    public static String idOf(byte[] key, int prefixLength) {
        return new String(key, prefixLength + 8, key.length - prefixLength - 8, StandardCharsets.UTF_8);
    }
}
