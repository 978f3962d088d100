package io.catalogviews.views.ids;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A category that matches the contract's grammar {@code [a-z0-9][a-z0-9-]{0,63}}. Like {@link ProductId}, the only
 * way to build a category row key: a category text from outside cannot alias another namespace of a store.
 */
public record CategoryName(String value) {

    /** The contract's category grammar, the one copy of it. */
    public static final String GRAMMAR = "[a-z0-9][a-z0-9-]{0,63}";
    private static final Pattern PATTERN = Pattern.compile(GRAMMAR);

    public CategoryName {
        if (!isValid(value)) {
            throw new IllegalArgumentException("category must match " + GRAMMAR + ", was "
                    + (value == null ? "null" : "'" + ProductId.Abbreviated.of(value) + "'"));
        }
    }

    public static boolean isValid(String text) {
        return text != null && text.length() <= 64 && PATTERN.matcher(text).matches();
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
