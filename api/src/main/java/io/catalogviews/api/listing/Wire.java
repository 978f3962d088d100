package io.catalogviews.api.listing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Big-endian primitives of the internal listing wire formats ({@link ScatterRequest}, {@link ListingFrames}).
 * A {@link Reader} never reads past its input and never allocates more than a declared bound: a short or
 * oversize input is a {@link Malformed}, never another exception.
 */
final class Wire {

    private Wire() {
    }

    /** Input that does not follow the wire format. */
    static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    static final class Writer {
        private final ByteArrayOutputStream out;

        Writer(int capacity) {
            out = new ByteArrayOutputStream(capacity);
        }

        Writer u8(int v) {
            out.write(v);
            return this;
        }

        Writer i32(int v) {
            out.writeBytes(ByteBuffer.allocate(4).putInt(v).array());
            return this;
        }

        Writer i64(long v) {
            out.writeBytes(ByteBuffer.allocate(8).putLong(v).array());
            return this;
        }

        /** An optional long: 0, or 1 and the value. */
        Writer optI64(Long v) {
            return v == null ? u8(0) : u8(1).i64(v);
        }

        /** An optional text: 0, or 1 and {@link #bytes} of its UTF-8. */
        Writer optText(String v) {
            return v == null ? u8(0) : u8(1).text(v);
        }

        Writer text(String v) {
            return bytes(v.getBytes(StandardCharsets.UTF_8));
        }

        /** Length (4 bytes) and bytes. */
        Writer bytes(byte[] v) {
            i32(v.length);
            out.writeBytes(v);
            return this;
        }

        byte[] toByteArray() {
            return out.toByteArray();
        }
    }

    static final class Reader {
        private final ByteBuffer buf;

        Reader(byte[] input) {
            buf = ByteBuffer.wrap(input == null ? new byte[0] : input);
        }

        int u8() {
            need(1);
            return buf.get() & 0xFF;
        }

        int i32() {
            need(4);
            return buf.getInt();
        }

        long i64() {
            need(8);
            return buf.getLong();
        }

        Long optI64() {
            int present = u8();
            if (present > 1) {
                throw new Malformed("bad presence flag " + present);
            }
            return present == 1 ? i64() : null;
        }

        String optText(int maxBytes) {
            int present = u8();
            if (present > 1) {
                throw new Malformed("bad presence flag " + present);
            }
            return present == 1 ? text(maxBytes) : null;
        }

        String text(int maxBytes) {
            return new String(bytes(maxBytes), StandardCharsets.UTF_8);
        }

        byte[] bytes(int maxBytes) {
            int length = i32();
            if (length < 0 || length > maxBytes) {
                throw new Malformed("length " + length + " outside 0.." + maxBytes);
            }
            need(length);
            byte[] out = new byte[length];
            buf.get(out);
            return out;
        }

        /** A count of entries that each take at least {@code minEntryBytes}: bounded by what remains. */
        int count(int max, int minEntryBytes) {
            int n = i32();
            if (n < 0 || n > max || (long) n * minEntryBytes > buf.remaining()) {
                throw new Malformed("count " + n + " impossible here");
            }
            return n;
        }

        void end() {
            if (buf.hasRemaining()) {
                throw new Malformed(buf.remaining() + " bytes after the end");
            }
        }

        private void need(int n) {
            if (buf.remaining() < n) {
                throw new Malformed("truncated");
            }
        }
    }
}
