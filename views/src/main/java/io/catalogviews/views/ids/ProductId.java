package io.catalogviews.views.ids;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * A product id that matches the contract's grammar {@code [A-Za-z0-9._:~-]{1,128}}. Stores are only ever read or
 * written under keys built from these (see {@code io.catalogviews.views.store.RowKeys}), so no input — a record key,
 * a request path — can reach the index or counter namespaces of a view store, whose keys
 * start with bytes below 0x20 that the grammar does not allow.
 */
public record ProductId(String value) {

    /** The contract's product-id grammar, the one copy of it. */
    public static final String GRAMMAR = "[A-Za-z0-9._:~-]{1,128}";

    public ProductId {
        if (!isValid(value)) {
            throw new IllegalArgumentException("product id must match " + GRAMMAR + ", was "
                    + (value == null ? "null" : "'" + Abbreviated.of(value) + "'"));
        }
    }

    /** Whether {@code text} matches {@link #GRAMMAR}: a loop, not the regex, as every read and event checks an id. */
    public static boolean isValid(String text) {
        if (text == null || text.isEmpty() || text.length() > 128) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!isIdChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIdChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == ':' || c == '~' || c == '-';
    }

    /** The id, or empty when {@code text} is outside the grammar. */
    public static Optional<ProductId> parse(String text) {
        return isValid(text) ? Optional.of(new ProductId(text)) : Optional.empty();
    }

    /** The id as the record key carries it (ASCII, so its UTF-8 bytes are its characters). */
    public byte[] utf8() {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return value;
    }

    /** For messages: at most 64 characters of an untrusted text, with control characters escaped. */
    static final class Abbreviated {
        private Abbreviated() {
        }

        static String of(String text) {
            Objects.requireNonNull(text);
            StringBuilder out = new StringBuilder();
            text.codePoints().limit(64).forEach(c -> {
                if (c < 0x20 || c == 0x7F) {
                    out.append(String.format("\\u%04x", c));
                } else {
                    out.appendCodePoint(c);
                }
            });
            return text.codePointCount(0, text.length()) > 64 ? out.append('…').toString() : out.toString();
        }
    }
}
