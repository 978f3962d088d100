package io.catalogviews.views.index;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the product task tells a category task through the repartition topic (keyed by category):
 * "product P is now E (version v) in this category" or "P left this category (version v)". The category task
 * keeps its own rows and derives index removals from them, never from upstream state it may not share.
 *
 * <p>Layout: {@code [type 1: 1 = entered/updated, 2 = left][id length 2][id UTF-8]} then the encoded
 * {@link ListingEntry} (type 1) or the version (type 2, 8 bytes).
 */
public record CategoryChange(String productId, long version, ListingEntry entry) {

    public static CategoryChange upsert(String productId, ListingEntry entry) {
        return new CategoryChange(productId, entry.version(), entry);
    }

    public static CategoryChange left(String productId, long version) {
        return new CategoryChange(productId, version, null);
    }

    public boolean isLeave() {
        return entry == null;
    }

    public byte[] encode() {
        byte[] id = productId.getBytes(StandardCharsets.UTF_8);
        byte[] body = entry == null ? ByteBuffer.allocate(8).putLong(version).array() : entry.encode();
        return ByteBuffer.allocate(3 + id.length + body.length).put((byte) (entry == null ? 2 : 1))
                .putShort((short) id.length).put(id).put(body).array();
    }

    public static CategoryChange decode(byte[] bytes) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        byte type = buf.get();
        int idLength = buf.getShort() & 0xFFFF;
        String id = new String(bytes, 3, idLength, StandardCharsets.UTF_8);
        int bodyStart = 3 + idLength;
        if (type == 2) {
            return left(id, ByteBuffer.wrap(bytes, bodyStart, 8).getLong());
        }
        if (type != 1) {
            throw new IllegalArgumentException("unknown category change type " + type);
        }
        return upsert(id, ListingEntry.decode(bytes, bodyStart, bytes.length - bodyStart));
    }
}
