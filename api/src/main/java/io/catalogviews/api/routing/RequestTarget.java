package io.catalogviews.api.routing;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The path and query of a request to another instance, built from values a route has parsed and validated, never
 * from the raw request: each path segment and each parameter name and value is UTF-8 percent-encoded, everything
 * but RFC 3986's unreserved characters ({@code A-Z a-z 0-9 - . _ ~}) as {@code %XX}. So a brand such as
 * {@code a|b}, {@code {x}} or {@code "q"} travels as {@code a%7Cb}, {@code %7Bx%7D}, {@code %22q%22}, and the
 * target is always a valid URI whatever a client sent. Parameters keep the order they were added in.
 */
public final class RequestTarget {

    private final StringBuilder path;
    private final StringBuilder query = new StringBuilder();

    private RequestTarget(String path) {
        this.path = new StringBuilder(path);
    }

    /**
     * @param routePath a fixed path of this service ({@code /v1/products}), written as is
     * @throws IllegalArgumentException when {@code routePath} is not an absolute path of unreserved characters
     *                                  and slashes (a defect of the caller, never input)
     */
    public static RequestTarget path(String routePath) {
        if (!routePath.startsWith("/")) {
            throw new IllegalArgumentException("a route path starts with '/': " + routePath);
        }
        for (int i = 0; i < routePath.length(); i++) {
            char c = routePath.charAt(i);
            if (c != '/' && !unreserved(c)) {
                throw new IllegalArgumentException("a route path holds only unreserved characters: " + routePath);
            }
        }
        return new RequestTarget(routePath);
    }

    /** Appends {@code /} and the encoded {@code value} (a path parameter such as a product id). */
    public RequestTarget segment(String value) {
        path.append('/');
        encode(path, value);
        return this;
    }

    /** Adds {@code name=value}; nothing when {@code value} is null. */
    public RequestTarget param(String name, Object value) {
        if (value != null) {
            query.append(query.isEmpty() ? "" : "&");
            encode(query, name);
            query.append('=');
            encode(query, value.toString());
        }
        return this;
    }

    /** Adds {@code name=value} once per value, in order (a repeatable parameter such as {@code brand}). */
    public RequestTarget params(String name, List<String> values) {
        values.forEach(value -> param(name, value));
        return this;
    }

    /** {@code /path?query}, or {@code /path} without parameters: valid for {@link java.net.URI#create}. */
    public String encoded() {
        return query.isEmpty() ? path.toString() : path + "?" + query;
    }

    @Override
    public String toString() {
        return encoded();
    }

    private static void encode(StringBuilder out, String value) {
        // A lone surrogate becomes '?' here, as in every String to UTF-8 conversion: never an exception.
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (unreserved(c)) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
    }

    /** Whether {@code c} is one of RFC 3986's unreserved characters ({@code A-Z a-z 0-9 - . _ ~}). */
    public static boolean unreserved(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                || c == '_' || c == '~';
    }
}
