package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Ids;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Self-contained, opaque, tamper-checked listing cursors (DESIGN.md decision 11).
 *
 * <p>A cursor is the unpadded base64url text of
 * <pre>
 * [format version: 1 byte = 1]
 * [query fingerprint: 8 bytes, see {@link QueryFingerprint}: category, brands, price bounds, stock, sort; not limit]
 * [position: sort value 8 bytes big-endian][product id: UTF-8, the rest up to the MAC]
 * [MAC: HMAC-SHA256 over every byte before it, truncated to 16 bytes]
 * </pre>
 * The MAC key is derived from the cursor secret given to the constructor ({@code --cursor-secret}, by default the
 * cluster secret), so every instance of a deployment derives the same key: cursors stay valid on every instance and
 * across restarts, and a cursor of another deployment (another secret) is refused. Cursors are always made with the
 * current secret; those made with the previous one ({@code --previous-cursor-secret}) are still accepted, so a
 * rotation does not break the listings being paged: one rotation later they are refused.
 *
 * <p>{@link #decode} never fails with anything but an {@link ApiException} 400 {@code bad_request} naming
 * {@code cursor}: for malformed text, an unknown format version, a bad MAC, or a cursor of another query.
 * Instances are thread-safe.
 */
public final class CursorCodec {

    static final byte VERSION = 1;
    static final int MAC_LENGTH = 16;
    private static final int HEADER = 1 + QueryFingerprint.LENGTH + 8;
    private static final int MAX_ID_BYTES = 128;
    /** Unpadded base64 of the longest cursor (128-byte id), with no room for anything else. */
    private static final int MAX_TEXT = (HEADER + MAX_ID_BYTES + MAC_LENGTH) * 4 / 3 + 2;
    private static final byte[] KEY_DERIVATION_LABEL =
            "catalog-views/cursor-key/1".getBytes(StandardCharsets.US_ASCII);
    private static final String HMAC = "HmacSHA256";
    private static final int DECODED_SLOTS = 1024;

    private final ThreadLocal<Mac> macs;
    /** The previous secret's, or null. */
    private final ThreadLocal<Mac> previousMacs;
    /**
     * Cursors this codec verified lately, with the query each was verified for. A page behind a link (page 2 of a
     * category) is asked for with the same cursor again and again; its check (base64, HMAC, fingerprint) is then
     * the same work each time. A hit needs the very text and an equal query, so it accepts nothing that the full
     * check would refuse: the secrets of a codec never change.
     */
    private final AtomicReferenceArray<Decoded> decoded = new AtomicReferenceArray<>(DECODED_SLOTS);

    private record Decoded(String cursor, ListingFilter filter, SortOrder sort, Position position) {
    }

    /** @param secret shared by every instance of a deployment (configured, or the application id); not empty */
    public CursorCodec(String secret) {
        this(secret, null);
    }

    /**
     * @param secret         shared by every instance of a deployment; not empty
     * @param previousSecret the secret before {@code secret}, whose cursors are still accepted; or null
     */
    public CursorCodec(String secret, String previousSecret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("the cursor secret must not be empty");
        }
        this.macs = macsOf(secret);
        this.previousMacs = previousSecret == null || previousSecret.isEmpty() || previousSecret.equals(secret)
                ? null : macsOf(previousSecret);
    }

    private static ThreadLocal<Mac> macsOf(String secret) {
        SecretKeySpec key = new SecretKeySpec(hmac(new SecretKeySpec(KEY_DERIVATION_LABEL, HMAC))
                .doFinal(secret.getBytes(StandardCharsets.UTF_8)), HMAC);
        return ThreadLocal.withInitial(() -> hmac(key));
    }

    /** The cursor that continues {@code query} after {@code last} (the last item served). */
    public String encode(Position last, ListingFilter filter, SortOrder sort) {
        byte[] id = last.id().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(HEADER + id.length + MAC_LENGTH);
        buf.put(VERSION).put(QueryFingerprint.of(filter, sort)).putLong(last.sortValue()).put(id);
        Mac mac = macs.get();
        mac.update(buf.array(), 0, buf.position());
        buf.put(mac.doFinal(), 0, MAC_LENGTH);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buf.array());
    }

    public String encode(Position last, ListingQuery query) {
        return encode(last, query.filter(), query.sort());
    }

    /**
     * The position a cursor continues after.
     *
     * @throws ApiException 400 {@code bad_request} naming {@code cursor} for any cursor this codec did not issue
     *                      for this very query (filters and sort)
     */
    public Position decode(String cursor, ListingFilter filter, SortOrder sort) {
        int slot = cursor == null ? 0 : cursor.hashCode() & (DECODED_SLOTS - 1);
        Decoded seen = decoded.get(slot);
        if (seen != null && seen.cursor.equals(cursor) && seen.sort == sort && seen.filter.equals(filter)) {
            return seen.position;
        }
        Position position = verify(cursor, filter, sort);
        decoded.set(slot, new Decoded(cursor, filter, sort, position));
        return position;
    }

    private Position verify(String cursor, ListingFilter filter, SortOrder sort) {
        byte[] bytes = bytes(cursor);
        if (bytes.length < HEADER + 1 + MAC_LENGTH) {
            throw invalid("is truncated");
        }
        if (bytes[0] != VERSION) {
            throw invalid("has an unknown format");
        }
        int signed = bytes.length - MAC_LENGTH;
        byte[] presented = Arrays.copyOfRange(bytes, signed, bytes.length);
        if (!signedWith(macs, bytes, signed, presented)
                && (previousMacs == null || !signedWith(previousMacs, bytes, signed, presented))) {
            throw invalid("was altered, issued by another deployment or made with a retired secret");
        }
        if (!MessageDigest.isEqual(QueryFingerprint.of(filter, sort),
                Arrays.copyOfRange(bytes, 1, 1 + QueryFingerprint.LENGTH))) {
            throw ApiException.badRequest("cursor", "parameter 'cursor' belongs to another query (filters and sort "
                    + "must stay the same while paging; only limit may change)");
        }
        long sortValue = ByteBuffer.wrap(bytes, 1 + QueryFingerprint.LENGTH, 8).getLong();
        String id = utf8(bytes, HEADER, signed - HEADER);
        if (!Ids.isValid(id)) {
            throw invalid("names no product");
        }
        return new Position(sortValue, id);
    }

    public Position decode(String cursor, ListingQuery query) {
        return decode(cursor, query.filter(), query.sort());
    }

    private static boolean signedWith(ThreadLocal<Mac> macs, byte[] bytes, int signed, byte[] presented) {
        Mac mac = macs.get();
        mac.update(bytes, 0, signed);
        return MessageDigest.isEqual(Arrays.copyOf(mac.doFinal(), MAC_LENGTH), presented);
    }

    /** Strict unpadded base64url, canonical (re-encoding gives the same text). */
    private static byte[] bytes(String cursor) {
        if (cursor == null || cursor.isEmpty() || cursor.length() > MAX_TEXT) {
            throw invalid("has the wrong length");
        }
        for (int i = 0; i < cursor.length(); i++) {
            char c = cursor.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
                    || c == '_';
            if (!ok) {
                throw invalid("is not base64url text");
            }
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw invalid("is not base64url text");
        }
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(cursor)) {
            throw invalid("is not canonical base64url text");
        }
        return bytes;
    }

    private static String utf8(byte[] bytes, int offset, int length) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw invalid("names no product");
        }
    }

    private static ApiException invalid(String why) {
        return ApiException.badRequest("cursor", "parameter 'cursor' " + why + "; pass the nextCursor of the "
                + "previous page unchanged");
    }

    private static Mac hmac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
        }
    }
}
