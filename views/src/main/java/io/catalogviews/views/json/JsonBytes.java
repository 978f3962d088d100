package io.catalogviews.views.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal JSON writer straight into UTF-8 bytes. Used on the write path to render serving-ready JSON
 * once per applied event, and on the read path to frame pages around stored bytes; no object mapping.
 * The caller is responsible for well-formedness (commas are handled by {@link #comma()}).
 */
public final class JsonBytes {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private byte[] buf;
    private int len;

    public JsonBytes(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public JsonBytes raw(byte b) {
        ensure(1);
        buf[len++] = b;
        return this;
    }

    public JsonBytes raw(byte[] bytes) {
        return raw(bytes, 0, bytes.length);
    }

    public JsonBytes raw(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, len, length);
        len += length;
        return this;
    }

    /** Writes ASCII text that needs no escaping (field names, numbers, literals). */
    public JsonBytes ascii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** Writes {@code "name":}. The name must be plain ASCII. */
    public JsonBytes name(String name) {
        raw((byte) '"').ascii(name).raw((byte) '"').raw((byte) ':');
        return this;
    }

    public JsonBytes comma() {
        return raw((byte) ',');
    }

    public JsonBytes number(long v) {
        return ascii(Long.toString(v));
    }

    public JsonBytes bool(boolean v) {
        return ascii(v ? "true" : "false");
    }

    public JsonBytes nullValue() {
        return ascii("null");
    }

    /** Writes a JSON string: quotes, escapes for quote, backslash and control characters, UTF-8 for the rest. */
    public JsonBytes string(String s) {
        raw((byte) '"');
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c == '"' || c == '\\') {
                    raw((byte) '\\').raw((byte) c);
                } else if (c < 0x20) {
                    escapeControl(c);
                } else {
                    raw((byte) c);
                }
                i++;
            } else {
                int end = i + 1;
                while (end < n && s.charAt(end) >= 0x80) {
                    end++;
                }
                raw(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end;
            }
        }
        return raw((byte) '"');
    }

    private void escapeControl(char c) {
        switch (c) {
            case '\n' -> raw((byte) '\\').raw((byte) 'n');
            case '\r' -> raw((byte) '\\').raw((byte) 'r');
            case '\t' -> raw((byte) '\\').raw((byte) 't');
            case '\b' -> raw((byte) '\\').raw((byte) 'b');
            case '\f' -> raw((byte) '\\').raw((byte) 'f');
            default -> raw((byte) '\\').raw((byte) 'u').raw((byte) '0').raw((byte) '0')
                    .raw(HEX[(c >> 4) & 0xF]).raw(HEX[c & 0xF]);
        }
    }

    public int length() {
        return len;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
