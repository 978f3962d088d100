package io.catalogviews.views.ids;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A category that matches the contract's grammar {@code [a-z0-9][a-z0-9-]{0,63}}. Like {@link ProductId}, the only
 * way to build a category row key: a category text from outside cannot alias another namespace of a store.
 */
public record CategoryName(String value) {

    /** The contract's category grammar, the one copy of it. */
    public static final String GRAMMAR = "[a-z0-9][a-z0-9-]{0,63}";

    public CategoryName {
        if (!isValid(value)) {
            throw new IllegalArgumentException("category must match " + GRAMMAR + ", was "
                    + (value == null ? "null" : "'" + ProductId.Abbreviated.of(value) + "'"));
        }
    }

    /** Whether {@code text} matches {@link #GRAMMAR}: a loop, not the regex, as every page and change checks one. */
    public static boolean isValid(String text) {
        if (text == null || text.isEmpty() || text.length() > 64 || text.charAt(0) == '-') {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The category, or empty when {@code text} is outside the grammar. */
    public static Optional<CategoryName> parse(String text) {
        return isValid(text) ? Optional.of(new CategoryName(text)) : Optional.empty();
    }

    public byte[] utf8() {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return value;
    }
}
