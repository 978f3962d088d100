package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.routing.RequestTarget;
import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Parses and validates the listing parameters of CONTRACT.md §2 for {@code GET /v1/products} and
 * {@code GET /v1/facets}. Every failure is an {@link ApiException} 400 {@code bad_request} naming the parameter:
 * <ul>
 *   <li>a parameter the route does not define, a repeated single-valued parameter, an empty value;</li>
 *   <li>{@code category} not matching {@code [a-z0-9][a-z0-9-]{0,63}};</li>
 *   <li>{@code brand}: more than {@value #MAX_BRANDS} values, a value of other than 1..{@value #MAX_BRAND_LENGTH}
 *       characters (code points) or holding a control character; a comma is part of the brand;</li>
 *   <li>{@code minPrice}, {@code maxPrice}: not a decimal integer 0..2^63-1 (digits only, no sign);
 *       {@code minPrice > maxPrice} names {@code minPrice};</li>
 *   <li>{@code inStock} other than {@code true} or {@code false};</li>
 *   <li>{@code sort} other than {@code price}, {@code -price}, {@code -updatedAt}, {@code -rating};</li>
 *   <li>{@code limit} outside 1..{@value #MAX_LIMIT} (default {@value #DEFAULT_LIMIT});</li>
 *   <li>{@code brandLimit} outside 1..{@value #MAX_BRAND_LIMIT} (default {@value #DEFAULT_BRAND_LIMIT});</li>
 *   <li>{@code fresh} other than {@code true} or {@code false} ({@code true}: no answer from a standby);</li>
 *   <li>{@code cursor} longer than {@value #MAX_CURSOR_LENGTH} characters (its content is checked by
 *       {@link CursorCodec}, which needs the parsed query).</li>
 * </ul>
 * Brands come out distinct and sorted ascending ({@link String#compareTo}), as {@link ListingFilter} wants.
 */
public final class ListingParams {

    public static final int MAX_BRANDS = 20;
    public static final int MAX_BRAND_LENGTH = 128;
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 200;
    public static final int DEFAULT_BRAND_LIMIT = 100;
    public static final int MAX_BRAND_LIMIT = 1000;
    public static final int MAX_CURSOR_LENGTH = 512;

    static final Set<String> PAGE_PARAMS = Set.of("category", "brand", "minPrice", "maxPrice", "inStock", "sort",
            "limit", "cursor", "fresh");
    static final Set<String> FACET_PARAMS = Set.of("category", "brand", "minPrice", "maxPrice", "inStock",
            "brandLimit", "fresh");

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");

    /**
     * The parameters of {@code GET /v1/products}.
     *
     * @param cursor the raw cursor text, or null for the first page (decode it with {@link CursorCodec})
     * @param fresh  {@code fresh=true}: refuse rather than answer from a standby replica
     */
    public record PageParams(ListingFilter filter, SortOrder sort, int limit, String cursor, boolean fresh) {

        /** These parameters as a request to another instance: parsed values, encoded again. */
        public RequestTarget target(String path) {
            return filterTarget(path, filter).param("sort", sort.wireName()).param("limit", limit)
                    .param("cursor", cursor).param("fresh", fresh ? "true" : null);
        }
    }

    /** The parameters of {@code GET /v1/facets}. */
    public record FacetParams(ListingFilter filter, int brandLimit, boolean fresh) {

        /** These parameters as a request to another instance: parsed values, encoded again. */
        public RequestTarget target(String path) {
            return filterTarget(path, filter).param("brandLimit", brandLimit).param("fresh", fresh ? "true" : null);
        }
    }

    private static RequestTarget filterTarget(String path, ListingFilter filter) {
        return RequestTarget.path(path).param("category", filter.category()).params("brand", filter.brands())
                .param("minPrice", filter.minPrice()).param("maxPrice", filter.maxPrice())
                .param("inStock", filter.inStock());
    }

    private ListingParams() {
    }

    /** @throws ApiException 400 naming the offending parameter */
    public static PageParams page(Map<String, List<String>> query) {
        QueryParams params = strict(query, PAGE_PARAMS);
        ListingFilter filter = filter(params);
        SortOrder sort = sort(params.single("sort"));
        int limit = (int) bounded(params, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
        String cursor = params.single("cursor");
        if (cursor != null && cursor.length() > MAX_CURSOR_LENGTH) {
            throw ApiException.badRequest("cursor", "parameter 'cursor' is not a cursor of this service");
        }
        return new PageParams(filter, sort, limit, cursor, fresh(params));
    }

    /** @throws ApiException 400 naming the offending parameter */
    public static FacetParams facets(Map<String, List<String>> query) {
        QueryParams params = strict(query, FACET_PARAMS);
        ListingFilter filter = filter(params);
        int brandLimit = (int) bounded(params, "brandLimit", 1, MAX_BRAND_LIMIT, DEFAULT_BRAND_LIMIT);
        return new FacetParams(filter, brandLimit, fresh(params));
    }

    /** Unknown names first, then an empty value of any parameter. */
    private static QueryParams strict(Map<String, List<String>> query, Set<String> allowed) {
        QueryParams params = QueryParams.of(query, allowed);
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            for (String value : e.getValue()) {
                if (value == null || value.isEmpty()) {
                    throw ApiException.badRequest(e.getKey(), "parameter '" + e.getKey() + "' must not be empty");
                }
            }
        }
        return params;
    }

    private static ListingFilter filter(QueryParams params) {
        String category = params.single("category");
        if (category != null && !CategoryName.isValid(category)) {
            throw ApiException.badRequest("category", "parameter 'category' must match " + CategoryName.GRAMMAR);
        }
        List<String> brands = brands(params.all("brand"));
        Long minPrice = price(params, "minPrice");
        Long maxPrice = price(params, "maxPrice");
        if (minPrice != null && maxPrice != null && minPrice > maxPrice) {
            throw ApiException.badRequest("minPrice", "parameter 'minPrice' (" + minPrice
                    + ") must not be greater than 'maxPrice' (" + maxPrice + ")");
        }
        return new ListingFilter(category, brands, minPrice, maxPrice, inStock(params.single("inStock")));
    }

    private static List<String> brands(List<String> values) {
        if (values.size() > MAX_BRANDS) {
            throw ApiException.badRequest("brand", "parameter 'brand' may be given 1.." + MAX_BRANDS
                    + " times, was " + values.size());
        }
        TreeSet<String> distinct = new TreeSet<>();
        for (String brand : values) {
            int length = brand.codePointCount(0, brand.length());
            if (length < 1 || length > MAX_BRAND_LENGTH) {
                throw ApiException.badRequest("brand", "each 'brand' must be 1.." + MAX_BRAND_LENGTH
                        + " characters, was " + length);
            }
            if (brand.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL)) {
                throw ApiException.badRequest("brand", "a 'brand' must not contain control characters");
            }
            distinct.add(brand);
        }
        return List.copyOf(distinct);
    }

    private static Long price(QueryParams params, String name) {
        String raw = params.single(name);
        if (raw == null) {
            return null;
        }
        if (!DIGITS.matcher(raw).matches()) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be an integer ≥ 0 (cents)");
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be at most " + Long.MAX_VALUE);
        }
    }

    private static long bounded(QueryParams params, String name, long min, long max, long fallback) {
        String raw = params.single(name);
        if (raw == null) {
            return fallback;
        }
        if (!DIGITS.matcher(raw).matches()) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be an integer in " + min + ".." + max);
        }
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            value = Long.MAX_VALUE;
        }
        if (value < min || value > max) {
            throw ApiException.badRequest(name, "parameter '" + name + "' must be in " + min + ".." + max);
        }
        return value;
    }

    private static boolean fresh(QueryParams params) {
        return "true".equals(params.booleanText("fresh"));
    }

    private static Boolean inStock(String raw) {
        if (raw == null) {
            return null;
        }
        return switch (raw) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw ApiException.badRequest("inStock", "parameter 'inStock' must be true or false");
        };
    }

    private static SortOrder sort(String raw) {
        if (raw == null) {
            return SortOrder.PRICE;
        }
        for (SortOrder s : SortOrder.values()) {
            if (s.wireName().equals(raw)) {
                return s;
            }
        }
        throw ApiException.badRequest("sort", "parameter 'sort' must be one of price, -price, -updatedAt, -rating");
    }
}
