package io.catalogviews.api.listing;

import io.catalogviews.api.http.Ids;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.Position;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The answers of the internal scatter-gather routes, binary (see {@link Wire}) so that the caller splices the
 * callee's stored JSON bytes into its page without parsing them:
 * <pre>
 * page:       [more: 0 ends the listing | 1 more | 2 cut by the scan budget, then [sort value: 8][id: text] of
 *             the last entry examined][item count: 4 bytes] then per item
 *             [sort value: 8 bytes][id: text][JSON: 4-byte length and the stored bytes]
 * facets:     [total: 8][inStock: 8][min price: optional 8][max price: optional 8]
 *             [brand count: 4] then per brand [brand: text][count: 8]
 *             or, over the scan budget, [total: 8 = -1] alone
 * categories: [count: 4] then per category [category: text][count: 8]
 * </pre>
 * Reading throws {@link Wire.Malformed} for anything else (the caller treats it as the callee being unable to
 * answer). The cut page and over-budget facets were added without a format version: an older caller reads them as
 * malformed, so during a rolling upgrade such answers are 503s, never wrong answers.
 */
final class ListingFrames {

    static final String CONTENT_TYPE = "application/vnd.catalog-views.listing-frames";
    private static final int MAX_ID_BYTES = 512;
    private static final int MAX_JSON_BYTES = 1 << 20;
    private static final int MAX_TEXT_BYTES = 4096;
    private static final int END = 0;
    private static final int MORE = 1;
    private static final int CUT = 2;
    private static final long OVER_BUDGET = -1;

    private ListingFrames() {
    }

    static byte[] page(ListingPage page) {
        int size = 8;
        for (ListingItem item : page.items()) {
            size += 24 + item.position().id().length() + item.json().length;
        }
        Wire.Writer out = new Wire.Writer(size + 160);
        if (page.cut()) {
            out.u8(CUT).i64(page.scannedTo().sortValue()).text(page.scannedTo().id());
        } else {
            out.u8(page.more() ? MORE : END);
        }
        out.i32(page.items().size());
        for (ListingItem item : page.items()) {
            out.i64(item.position().sortValue()).text(item.position().id()).bytes(item.json());
        }
        return out.toByteArray();
    }

    static ListingPage readPage(byte[] body) {
        Wire.Reader in = new Wire.Reader(body);
        int more = in.u8();
        if (more > CUT) {
            throw new Wire.Malformed("bad more flag");
        }
        Position scannedTo = more == CUT ? new Position(in.i64(), id(in)) : null;
        int n = in.count(Integer.MAX_VALUE, 16);
        List<ListingItem> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long sortValue = in.i64();
            String id = id(in);
            items.add(new ListingItem(new Position(sortValue, id), in.bytes(MAX_JSON_BYTES)));
        }
        in.end();
        return new ListingPage(items, more == MORE, scannedTo);
    }

    private static String id(Wire.Reader in) {
        String id = in.text(MAX_ID_BYTES);
        if (!Ids.isValid(id)) {
            throw new Wire.Malformed("bad id");
        }
        return id;
    }

    static byte[] facets(FacetCounts facets) {
        if (facets.overBudget()) {
            return new Wire.Writer(8).i64(OVER_BUDGET).toByteArray();
        }
        Wire.Writer out = new Wire.Writer(48 + facets.brands().size() * 32).i64(facets.total()).i64(facets.inStock())
                .optI64(facets.minPrice()).optI64(facets.maxPrice()).i32(facets.brands().size());
        facets.brands().forEach((brand, count) -> out.text(brand).i64(count));
        return out.toByteArray();
    }

    static FacetCounts readFacets(byte[] body) {
        Wire.Reader in = new Wire.Reader(body);
        long total = in.i64();
        if (total == OVER_BUDGET) {
            in.end();
            return FacetCounts.OVER_BUDGET;
        }
        if (total < 0) {
            throw new Wire.Malformed("negative total");
        }
        long inStock = in.i64();
        Long min = in.optI64();
        Long max = in.optI64();
        int n = in.count(Integer.MAX_VALUE, 12);
        Map<String, Long> brands = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            String brand = in.text(MAX_TEXT_BYTES);
            if (brands.put(brand, in.i64()) != null) {
                throw new Wire.Malformed("brand twice");
            }
        }
        in.end();
        return new FacetCounts(total, inStock, brands, min, max);
    }

    static byte[] categories(List<CategoryCount> categories) {
        Wire.Writer out = new Wire.Writer(8 + categories.size() * 32).i32(categories.size());
        for (CategoryCount c : categories) {
            out.text(c.category()).i64(c.count());
        }
        return out.toByteArray();
    }

    static List<CategoryCount> readCategories(byte[] body) {
        Wire.Reader in = new Wire.Reader(body);
        int n = in.count(Integer.MAX_VALUE, 12);
        List<CategoryCount> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new CategoryCount(in.text(MAX_TEXT_BYTES), in.i64()));
        }
        in.end();
        return out;
    }
}
