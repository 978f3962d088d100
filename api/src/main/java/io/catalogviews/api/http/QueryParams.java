package io.catalogviews.api.http;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads query parameters strictly: an unknown parameter, a repeated single-valued one or a value out of
 * range is a 400 that names the parameter.
 */
public final class QueryParams {

    private final Map<String, List<String>> params;

    private QueryParams(Map<String, List<String>> params) {
        this.params = params;
    }

    /** @throws ApiException 400 naming the first parameter that is not in {@code allowed} */
    public static QueryParams of(Map<String, List<String>> params, Set<String> allowed) {
        for (String name : params.keySet()) {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest(name, "unknown parameter '" + abbreviate(name) + "'; allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()));
            }
        }
        return new QueryParams(params);
    }

    /** The single value of {@code name}, or null when absent. */
    public String single(String name) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must not be repeated");
        }
        return values.get(0);
    }

    public List<String> all(String name) {
        return params.getOrDefault(name, List.of());
    }

    /** {@code "true"}, {@code "false"} or null when absent; anything else is a 400 naming the parameter. */
    public String booleanText(String name) {
        String raw = single(name);
        if (raw != null && !raw.equals("true") && !raw.equals("false")) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be true or false, was '"
                    + abbreviate(raw) + "'");
        }
        return raw;
    }

    /** A long in {@code min..max}, or {@code fallback} when absent. */
    public Long longInRange(String name, long min, long max, Long fallback) {
        String raw = single(name);
        if (raw == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be an integer in " + min + ".."
                    + max + ", was '" + abbreviate(raw) + "'");
        }
        if (value < min || value > max) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be in " + min + ".." + max
                    + ", was " + value);
        }
        return value;
    }

    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
