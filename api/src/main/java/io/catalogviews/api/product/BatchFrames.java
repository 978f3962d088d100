package io.catalogviews.api.product;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The internal wire format of a forwarded batch answer, so the caller can splice the owner's stored JSON
 * bytes into its page without parsing them: one frame per requested id, in request order, each
 * {@code [kind: 0 found, 1 missing][int length][JSON bytes]}.
 */
final class BatchFrames {

    static final String CONTENT_TYPE = "application/vnd.catalog-views.batch-frames";

    private BatchFrames() {
    }

    /** @param jsons the stored JSON of each requested id, null for a missing one */
    static byte[] encode(List<byte[]> jsons) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(jsons.size() * 400);
        for (byte[] json : jsons) {
            if (json != null) {
                out.write(0);
                out.writeBytes(ByteBuffer.allocate(4).putInt(json.length).array());
                out.writeBytes(json);
            } else {
                out.write(1);
                out.writeBytes(new byte[4]);
            }
        }
        return out.toByteArray();
    }

    /** One entry per frame: the JSON bytes, or null when the product is missing. */
    static List<byte[]> decode(byte[] frames, int expected) {
        ByteBuffer buf = ByteBuffer.wrap(frames);
        List<byte[]> out = new ArrayList<>(expected);
        while (buf.hasRemaining()) {
            byte kind = buf.get();
            int length = buf.getInt();
            if (kind == 0) {
                byte[] json = new byte[length];
                buf.get(json);
                out.add(json);
            } else {
                out.add(null);
            }
        }
        if (out.size() != expected) {
            throw new IllegalStateException("batch answer holds " + out.size() + " frames, expected " + expected);
        }
        return out;
    }
}
