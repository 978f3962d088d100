package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Ids;
import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The body of an internal scatter-gather request (DESIGN.md decision 9): exactly which local partitions the
 * callee must read, and the query. Binary, big-endian (see {@link Wire}):
 * <pre>
 * [format version: 1 byte = 1][kind: 1 page, 2 facets, 3 categories]
 * [partition count: 4 bytes][partition: 4 bytes]...
 * page:   [filter][sort wire name: text][limit: 4 bytes][after: 0 | 1 sort value 8 bytes, id text]
 * facets: [filter]
 * filter = [category: optional text][brand count: 4 bytes][brand: text]...[minPrice: optional 8 bytes]
 *          [maxPrice: optional 8 bytes][inStock: 0 any, 1 false, 2 true]
 * text = [UTF-8 length: 4 bytes][UTF-8]
 * </pre>
 * Reading validates what the public parameters guarantee (grammar, ranges, partitions), so an internal route
 * called by anyone answers 400 {@code bad_request} naming {@code body} for a malformed body, never 500.
 */
final class ScatterRequest {

    static final String CONTENT_TYPE = "application/vnd.catalog-views.listing-request";
    static final byte VERSION = 1;
    private static final int PAGE = 1;
    private static final int FACETS = 2;
    private static final int CATEGORIES = 3;
    private static final int MAX_TEXT_BYTES = 1024;

    /** A page of a whole-catalog listing over the given product partitions. */
    record PageRequest(ListingQuery query, Set<Integer> partitions) {
    }

    /** Whole-catalog facets over the given product partitions. */
    record FacetRequest(ListingFilter filter, Set<Integer> partitions) {
    }

    private ScatterRequest() {
    }

    static byte[] page(ListingQuery query, Set<Integer> partitions) {
        Wire.Writer out = header(PAGE, partitions);
        filter(out, query.filter());
        out.text(query.sort().wireName()).i32(query.limit());
        if (query.after() == null) {
            out.u8(0);
        } else {
            out.u8(1).i64(query.after().sortValue()).text(query.after().id());
        }
        return out.toByteArray();
    }

    static byte[] facets(ListingFilter filter, Set<Integer> partitions) {
        Wire.Writer out = header(FACETS, partitions);
        filter(out, filter);
        return out.toByteArray();
    }

    static byte[] categories(Set<Integer> partitions) {
        return header(CATEGORIES, partitions).toByteArray();
    }

    /** @throws ApiException 400 naming {@code body} unless a valid page request with partitions below {@code partitionCount} */
    static PageRequest readPage(byte[] body, int partitionCount) {
        try {
            Wire.Reader in = new Wire.Reader(body);
            Set<Integer> partitions = header(in, PAGE, partitionCount);
            ListingFilter filter = filter(in);
            SortOrder sort = sort(in.text(MAX_TEXT_BYTES));
            int limit = in.i32();
            if (limit < 1 || limit > ListingParams.MAX_LIMIT) {
                throw new Wire.Malformed("limit " + limit);
            }
            Position after = null;
            if (in.u8() == 1) {
                long sortValue = in.i64();
                String id = in.text(MAX_TEXT_BYTES);
                if (!Ids.isValid(id)) {
                    throw new Wire.Malformed("bad id");
                }
                after = new Position(sortValue, id);
            }
            in.end();
            return new PageRequest(new ListingQuery(filter, sort, limit, after), partitions);
        } catch (Wire.Malformed e) {
            throw malformed(e);
        }
    }

    /** @throws ApiException 400 naming {@code body} unless a valid facet request */
    static FacetRequest readFacets(byte[] body, int partitionCount) {
        try {
            Wire.Reader in = new Wire.Reader(body);
            Set<Integer> partitions = header(in, FACETS, partitionCount);
            ListingFilter filter = filter(in);
            in.end();
            return new FacetRequest(filter, partitions);
        } catch (Wire.Malformed e) {
            throw malformed(e);
        }
    }

    /** @throws ApiException 400 naming {@code body} unless a valid categories request */
    static Set<Integer> readCategories(byte[] body, int partitionCount) {
        try {
            Wire.Reader in = new Wire.Reader(body);
            Set<Integer> partitions = header(in, CATEGORIES, partitionCount);
            in.end();
            return partitions;
        } catch (Wire.Malformed e) {
            throw malformed(e);
        }
    }

    private static Wire.Writer header(int kind, Set<Integer> partitions) {
        Wire.Writer out = new Wire.Writer(64 + partitions.size() * 4).u8(VERSION).u8(kind).i32(partitions.size());
        for (int p : new TreeSet<>(partitions)) {
            out.i32(p);
        }
        return out;
    }

    private static Set<Integer> header(Wire.Reader in, int kind, int partitionCount) {
        if (in.u8() != VERSION) {
            throw new Wire.Malformed("unknown format version");
        }
        if (in.u8() != kind) {
            throw new Wire.Malformed("wrong request kind for this route");
        }
        int n = in.count(partitionCount, 4);
        if (n == 0) {
            throw new Wire.Malformed("no partitions");
        }
        TreeSet<Integer> partitions = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            int p = in.i32();
            if (p < 0 || p >= partitionCount || !partitions.add(p)) {
                throw new Wire.Malformed("bad partition " + p);
            }
        }
        return Collections.unmodifiableSet(partitions);
    }

    private static void filter(Wire.Writer out, ListingFilter filter) {
        out.optText(filter.category()).i32(filter.brands().size());
        for (String brand : filter.brands()) {
            out.text(brand);
        }
        out.optI64(filter.minPrice()).optI64(filter.maxPrice())
                .u8(filter.inStock() == null ? 0 : filter.inStock() ? 2 : 1);
    }

    private static ListingFilter filter(Wire.Reader in) {
        String category = in.optText(MAX_TEXT_BYTES);
        if (category != null && !CategoryName.isValid(category)) {
            throw new Wire.Malformed("bad category");
        }
        int n = in.count(ListingParams.MAX_BRANDS, 4);
        TreeSet<String> brands = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            String brand = in.text(MAX_TEXT_BYTES);
            if (brand.isEmpty() || brand.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL)) {
                throw new Wire.Malformed("bad brand");
            }
            brands.add(brand);
        }
        Long minPrice = in.optI64();
        Long maxPrice = in.optI64();
        if ((minPrice != null && minPrice < 0) || (maxPrice != null && maxPrice < 0)
                || (minPrice != null && maxPrice != null && minPrice > maxPrice)) {
            throw new Wire.Malformed("bad price bounds");
        }
        int stock = in.u8();
        if (stock > 2) {
            throw new Wire.Malformed("bad stock filter");
        }
        return new ListingFilter(category, List.copyOf(brands), minPrice, maxPrice,
                stock == 0 ? null : stock == 2);
    }

    private static SortOrder sort(String wireName) {
        for (SortOrder s : SortOrder.values()) {
            if (s.wireName().equals(wireName)) {
                return s;
            }
        }
        throw new Wire.Malformed("unknown sort");
    }

    private static ApiException malformed(Wire.Malformed e) {
        return ApiException.badRequest("body", "the internal listing request is malformed (" + e.getMessage() + ")");
    }
}
