package io.catalogviews.api.listing;

import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.TreeSet;

/**
 * The identity of a listing query for cursors: the first 8 bytes of SHA-256 over a canonical form of what
 * selects and orders the items (category, brands, price bounds, stock filter, sort), never the page size, so
 * that {@code limit} may change between pages while any other change makes a cursor invalid.
 *
 * <p>Canonical form (every variable-length part length-prefixed, so no two queries share a form):
 * {@code "catalog-views/listing/1"}, then category, brands (distinct, sorted, count-prefixed), minPrice,
 * maxPrice, inStock, sort wire name; an absent value is a 0 byte, a present one a 1 byte and the value.
 */
final class QueryFingerprint {

    static final int LENGTH = 8;
    private static final byte[] DOMAIN = "catalog-views/listing/1".getBytes(StandardCharsets.US_ASCII);
    /** A provider lookup per call costs more than the digest of a fingerprint's few dozen bytes. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(QueryFingerprint::sha256);

    private QueryFingerprint() {
    }

    static byte[] of(ListingFilter filter, SortOrder sort) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.writeBytes(DOMAIN);
        text(out, filter.category());
        TreeSet<String> brands = new TreeSet<>(filter.brands());
        out.writeBytes(ByteBuffer.allocate(4).putInt(brands.size()).array());
        for (String brand : brands) {
            text(out, brand);
        }
        number(out, filter.minPrice());
        number(out, filter.maxPrice());
        out.write(filter.inStock() == null ? 0 : filter.inStock() ? 2 : 1);
        text(out, sort.wireName());
        byte[] digest = SHA256.get().digest(out.toByteArray());
        byte[] hash = new byte[LENGTH];
        System.arraycopy(digest, 0, hash, 0, LENGTH);
        return hash;
    }

    private static void text(ByteArrayOutputStream out, String value) {
        if (value == null) {
            out.write(0);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.write(1);
        out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
        out.writeBytes(bytes);
    }

    private static void number(ByteArrayOutputStream out, Long value) {
        if (value == null) {
            out.write(0);
            return;
        }
        out.write(1);
        out.writeBytes(ByteBuffer.allocate(8).putLong(value).array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }
}
