package io.catalogviews.views.index;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a listing needs of one product: the fields its sorts and filters read, and the serving JSON. Derived from the
 * product row whenever the row changes ({@code ProductListing}); its index entries and counters are written from it
 * in the whole catalog's scope and in each of the product's categories.
 *
 * <p>Layout: {@code [version 8][priceCents 8][updatedAt 8][hasRating 1][rating bits 4][stock 4]
 * [brand length 2][brand UTF-8][JSON (rest)]}.
 */
public record ListingEntry(long version, long priceCents, long updatedAtMs, Float rating, int stock, String brand,
                           byte[] json) {

    private static final int FIXED = 8 + 8 + 8 + 1 + 4 + 4 + 2;

    public boolean inStock() {
        return stock > 0;
    }

    public long sortValue(SortOrder sort) {
        return sort.sortValue(priceCents, updatedAtMs, rating);
    }

    public byte[] encode() {
        byte[] b = brand.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(FIXED + b.length + json.length)
                .putLong(version).putLong(priceCents).putLong(updatedAtMs)
                .put((byte) (rating == null ? 0 : 1)).putInt(rating == null ? 0 : Float.floatToIntBits(rating))
                .putInt(stock).putShort((short) b.length).put(b).put(json)
                .array();
    }

    public static ListingEntry decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public static ListingEntry decode(byte[] bytes, int offset, int length) {
        if (length < FIXED) {
            throw new IllegalArgumentException("listing entry of " + length + " bytes is shorter than its header");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes, offset, length);
        long version = buf.getLong();
        long price = buf.getLong();
        long updatedAt = buf.getLong();
        boolean hasRating = buf.get() != 0;
        float rating = Float.intBitsToFloat(buf.getInt());
        int stock = buf.getInt();
        int brandLength = buf.getShort() & 0xFFFF;
        if (brandLength > buf.remaining()) {
            throw new IllegalArgumentException("listing entry brand length " + brandLength + " exceeds entry");
        }
        String brand = new String(bytes, buf.position(), brandLength, StandardCharsets.UTF_8);
        int jsonStart = buf.position() + brandLength;
        byte[] json = Arrays.copyOfRange(bytes, jsonStart, offset + length);
        return new ListingEntry(version, price, updatedAt, hasRating ? rating : null, stock, brand, json);
    }

    /** The JSON of an encoded entry, without decoding the rest. */
    public static byte[] jsonOf(byte[] bytes) {
        int brandLength = ByteBuffer.wrap(bytes, FIXED - 2, 2).getShort() & 0xFFFF;
        return Arrays.copyOfRange(bytes, FIXED + brandLength, bytes.length);
    }

    /** The version of an encoded entry, without decoding the rest. */
    public static long versionOf(byte[] bytes) {
        return ByteBuffer.wrap(bytes, 0, 8).getLong();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ListingEntry e && version == e.version && priceCents == e.priceCents
                && updatedAtMs == e.updatedAtMs && java.util.Objects.equals(rating, e.rating) && stock == e.stock
                && brand.equals(e.brand) && Arrays.equals(json, e.json);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + brand.hashCode();
    }

    @Override
    public String toString() {
        return "ListingEntry[v" + version + ", price=" + priceCents + ", updatedAt=" + updatedAtMs + ", rating="
                + rating + ", stock=" + stock + ", brand=" + brand + ", json=" + json.length + " B]";
    }
}
