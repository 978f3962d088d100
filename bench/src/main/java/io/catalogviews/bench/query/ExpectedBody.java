package io.catalogviews.bench.query;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of a right answer as the harness's own writer renders it ({@code ProductJsonText}: the fields in the
 * order of the contract's example, no spaces), computed before the load starts, so that the load client recognises
 * a right answer by comparing bytes and parses only an answer that differs. Every target pays the same for a right
 * answer that way, whatever it is; a target that renders the same JSON differently (field order, spaces) is still
 * checked in full, by a parse, and its runs show it ({@code parsedAnswers}).
 *
 * <p>A listing page's {@code nextCursor} is the target's own token and cannot be known in advance: for a page with
 * a further item, {@code bytes} ends at {@code "nextCursor":} and the rest of the answer must be one non-empty JSON
 * string without escapes, then {@code }} (a cursor with escapes is checked by a parse instead).
 *
 * @param cursorFollows whether a target's cursor string and {@code }} follow {@code bytes}
 */
public record ExpectedBody(byte[] bytes, boolean cursorFollows) {

    /** An answer that must equal {@code json} byte for byte. */
    public static ExpectedBody exact(String json) {
        return new ExpectedBody(json.getBytes(StandardCharsets.UTF_8), false);
    }

    /** A page whose {@code nextCursor} is a string of the target's: {@code prefix} ends with {@code "nextCursor":}. */
    public static ExpectedBody withCursorAfter(String prefix) {
        return new ExpectedBody(prefix.getBytes(StandardCharsets.UTF_8), true);
    }

    /** Whether {@code body} is this answer, byte for byte (and a well-formed cursor where one follows). */
    public boolean matches(byte[] body) {
        if (!cursorFollows) {
            return Arrays.equals(bytes, body);
        }
        int n = bytes.length;
        int last = body.length - 1;
        // at least "x"} after the prefix
        if (body.length < n + 4 || !Arrays.equals(body, 0, n, bytes, 0, n)) {
            return false;
        }
        if (body[n] != '"' || body[last] != '}' || body[last - 1] != '"') {
            return false;
        }
        for (int i = n + 1; i < last - 1; i++) {
            int b = body[i] & 0xff;
            if (b == '"' || b == '\\' || b < 0x20) {
                return false;
            }
        }
        return true;
    }
}
