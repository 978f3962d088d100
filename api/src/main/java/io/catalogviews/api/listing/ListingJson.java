package io.catalogviews.api.listing;

import io.catalogviews.views.json.JsonBytes;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Renders the public listing answers (CONTRACT.md §2) with {@link JsonBytes}, splicing the stored product JSON
 * as it is (no object mapping per item):
 * <ul>
 *   <li>{@code {"items":[<stored JSON>,...],"nextCursor":"…" or null}};</li>
 *   <li>{@code {"total":n,"inStock":n,"brands":[{"value":"acme","count":12},...],"price":{"min":c,"max":c} or
 *       null}}: brands by count descending, then value ascending (Unicode code point order, which is UTF-8 byte
 *       order), at most {@code brandLimit}; price null exactly when nothing matches;</li>
 *   <li>{@code {"categories":[{"category":"phones","count":1234},...]}} by name ascending.</li>
 * </ul>
 */
final class ListingJson {

    static final Comparator<String> CODE_POINT_ORDER = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private ListingJson() {
    }

    static byte[] page(ListingPage page, String nextCursor) {
        int size = 48 + (nextCursor == null ? 0 : nextCursor.length());
        for (ListingItem item : page.items()) {
            size += item.json().length + 1;
        }
        JsonBytes out = new JsonBytes(size);
        out.raw((byte) '{').name("items").raw((byte) '[');
        for (int i = 0; i < page.items().size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.raw(page.items().get(i).json());
        }
        out.raw((byte) ']').comma().name("nextCursor");
        if (nextCursor == null) {
            out.nullValue();
        } else {
            out.string(nextCursor);
        }
        return out.raw((byte) '}').toByteArray();
    }

    static byte[] facets(FacetCounts facets, int brandLimit) {
        List<Map.Entry<String, Long>> brands = topBrands(facets.brands(), brandLimit);
        JsonBytes out = new JsonBytes(96 + brands.size() * 40);
        out.raw((byte) '{').name("total").number(facets.total()).comma();
        out.name("inStock").number(facets.inStock()).comma();
        out.name("brands").raw((byte) '[');
        for (int i = 0; i < brands.size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.raw((byte) '{').name("value").string(brands.get(i).getKey()).comma()
                    .name("count").number(brands.get(i).getValue()).raw((byte) '}');
        }
        out.raw((byte) ']').comma().name("price");
        if (facets.minPrice() == null || facets.maxPrice() == null) {
            out.nullValue();
        } else {
            out.raw((byte) '{').name("min").number(facets.minPrice()).comma()
                    .name("max").number(facets.maxPrice()).raw((byte) '}');
        }
        return out.raw((byte) '}').toByteArray();
    }

    /** Brands by count descending, then value ascending, cut to {@code limit}. */
    static List<Map.Entry<String, Long>> topBrands(Map<String, Long> brands, int limit) {
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(brands.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry::getKey, CODE_POINT_ORDER));
        return sorted.size() <= limit ? sorted : sorted.subList(0, limit);
    }

    /** Categories sorted by name ascending (they are ASCII by grammar). */
    static byte[] categories(List<CategoryCount> categories) {
        List<CategoryCount> sorted = new ArrayList<>(categories);
        sorted.sort(Comparator.comparing(CategoryCount::category, CODE_POINT_ORDER));
        JsonBytes out = new JsonBytes(32 + sorted.size() * 48);
        out.raw((byte) '{').name("categories").raw((byte) '[');
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.raw((byte) '{').name("category").string(sorted.get(i).category()).comma()
                    .name("count").number(sorted.get(i).count()).raw((byte) '}');
        }
        return out.raw((byte) ']').raw((byte) '}').toByteArray();
    }
}
