package io.catalogviews.views.product;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One row of the product view: what the view remembers about a product id.
 *
 * <p>A live row holds the serving-ready JSON (rendered once, when the event was applied) and the Avro
 * state needed to apply later patches. A deletion marker holds only the remembered version and when
 * it was deleted, so that a late, older event is still rejected as stale.
 *
 * <p>Byte layout (all integers big-endian), chosen so that a read can slice the JSON without
 * decoding anything else:
 * <pre>
 * [0]      format (1)
 * [1]      render version of the JSON (see {@link ProductJson#RENDER_VERSION})
 * [2]      flags: bit 0 = deleted
 * [3..10]  version of the last applied event
 * [11..18] deletion time in epoch ms (0 for a live row)
 * [19..22] JSON length N
 * [23..23+N) JSON (UTF-8)
 * [23+N..) Avro binary of the Product (empty for a deletion marker)
 * </pre>
 */
public record ProductRow(int renderVersion, long version, boolean deleted, long deletedAtMs, byte[] json,
                         byte[] state) {

    static final byte FORMAT = 1;
    private static final int HEADER = 23;

    public static ProductRow live(long version, byte[] json, byte[] state) {
        return new ProductRow(ProductJson.RENDER_VERSION, version, false, 0L, json, state);
    }

    public static ProductRow deletionMarker(long version, long deletedAtMs) {
        return new ProductRow(ProductJson.RENDER_VERSION, version, true, deletedAtMs, new byte[0], new byte[0]);
    }

    public byte[] encode() {
        ByteBuffer buf = ByteBuffer.allocate(HEADER + json.length + state.length);
        buf.put(FORMAT).put((byte) renderVersion).put((byte) (deleted ? 1 : 0)).putLong(version)
                .putLong(deletedAtMs).putInt(json.length).put(json).put(state);
        return buf.array();
    }

    /**
     * Decodes a stored row.
     *
     * @throws IllegalArgumentException naming what is wrong when the bytes are not a row of a known format
     */
    public static ProductRow decode(byte[] bytes) {
        checkHeader(bytes);
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        buf.get();
        int renderVersion = buf.get() & 0xFF;
        boolean deleted = (buf.get() & 1) != 0;
        long version = buf.getLong();
        long deletedAt = buf.getLong();
        int jsonLength = checkedJsonLength(bytes);
        byte[] json = Arrays.copyOfRange(bytes, HEADER, HEADER + jsonLength);
        byte[] state = Arrays.copyOfRange(bytes, HEADER + jsonLength, bytes.length);
        return new ProductRow(renderVersion, version, deleted, deletedAt, json, state);
    }

    /** The version stored in an encoded row, without decoding the rest. */
    public static long versionOf(byte[] bytes) {
        checkHeader(bytes);
        return ByteBuffer.wrap(bytes, 3, 8).getLong();
    }

    /** Whether an encoded row is a deletion marker, without decoding the rest. */
    public static boolean isDeletedRow(byte[] bytes) {
        checkHeader(bytes);
        return (bytes[2] & 1) != 0;
    }

    /**
     * The JSON a read serves: the stored bytes, or — for a row rendered by an older release (its render version is
     * not {@link ProductJson#RENDER_VERSION}) — the product rendered again from its state, so that a rendering
     * change reaches every row without a replay of the input topic, whose retention may not hold them.
     */
    public static byte[] servingJson(byte[] bytes) {
        checkHeader(bytes);
        if ((bytes[1] & 0xFF) == ProductJson.RENDER_VERSION) {
            return jsonOf(bytes);
        }
        return decode(bytes).servingJson();
    }

    /** The JSON a read of this decoded row serves: see {@link #servingJson(byte[])}. */
    public byte[] servingJson() {
        return renderVersion == ProductJson.RENDER_VERSION ? json
                : ProductJson.render(ProductState.decode(state), version);
    }

    /** Copies out the serving JSON of an encoded row: the only allocation a read makes. */
    public static byte[] jsonOf(byte[] bytes) {
        checkHeader(bytes);
        return Arrays.copyOfRange(bytes, HEADER, HEADER + checkedJsonLength(bytes));
    }

    private static int checkedJsonLength(byte[] bytes) {
        int jsonLength = ByteBuffer.wrap(bytes, 19, 4).getInt();
        if (jsonLength < 0 || jsonLength > bytes.length - HEADER) {
            throw new IllegalArgumentException("product row JSON length " + jsonLength + " exceeds row size "
                    + bytes.length);
        }
        return jsonLength;
    }

    private static void checkHeader(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER || bytes[0] != FORMAT) {
            throw new IllegalArgumentException("not a product row of format " + FORMAT + ": "
                    + (bytes == null ? "null" : bytes.length + " bytes, format byte "
                    + (bytes.length == 0 ? "none" : Integer.toString(bytes[0]))));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProductRow r && renderVersion == r.renderVersion && version == r.version
                && deleted == r.deleted && deletedAtMs == r.deletedAtMs && Arrays.equals(json, r.json)
                && Arrays.equals(state, r.state);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + Arrays.hashCode(json);
    }

    @Override
    public String toString() {
        return "ProductRow[version=" + version + ", deleted=" + deleted + ", json=" + json.length + " B, state="
                + state.length + " B]";
    }
}
