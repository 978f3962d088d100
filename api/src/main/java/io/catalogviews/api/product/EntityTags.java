package io.catalogviews.api.product;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code If-None-Match} of a product read, parsed: the entity tags that can match a product's {@code ETag}
 * ({@code "<version>"}, its weak form {@code W/"<version>"}, or {@code *}). Anything else in the header can never
 * match and is dropped, so what travels to another instance is rebuilt from these, never the raw header.
 */
final class EntityTags {

    /** At most this many tags are kept: a product has one ETag, a longer list is padding. */
    static final int MAX_TAGS = 32;
    private static final Pattern TAG = Pattern.compile("\\*|(W/)?\"[0-9]{1,19}\"");

    private EntityTags() {
    }

    /** The tags of {@code header} that could match a product; empty when absent or none could. */
    static List<String> parse(String header) {
        if (header == null || header.isEmpty()) {
            return List.of();
        }
        List<String> tags = new ArrayList<>();
        for (String candidate : header.split(",", MAX_TAGS + 1)) {
            String tag = candidate.trim();
            if (tags.size() < MAX_TAGS && TAG.matcher(tag).matches()) {
                tags.add(tag);
            }
        }
        return List.copyOf(tags);
    }

    /** Whether one of {@code tags} matches {@code etag} (weak comparison, as for {@code If-None-Match}). */
    static boolean matches(List<String> tags, String etag) {
        for (String tag : tags) {
            if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    /** The header that carries {@code tags} to another instance, or null for none. */
    static String header(List<String> tags) {
        return tags.isEmpty() ? null : String.join(", ", tags);
    }
}
