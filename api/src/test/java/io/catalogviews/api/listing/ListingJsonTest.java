package io.catalogviews.api.listing;

import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.Position;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ListingJsonTest {

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void shouldSpliceStoredJsonWhenRenderingAPage() {
        ListingPage page = new ListingPage(List.of(
                new ListingItem(new Position(1, "a"), "{\"id\":\"a\",\"name\":\"Ä\"}".getBytes(StandardCharsets.UTF_8)),
                new ListingItem(new Position(2, "b"), "{\"id\":\"b\"}".getBytes(StandardCharsets.UTF_8))), true);
        assertThat(text(ListingJson.page(page, "abc_-1")))
                .isEqualTo("{\"items\":[{\"id\":\"a\",\"name\":\"Ä\"},{\"id\":\"b\"}],\"nextCursor\":\"abc_-1\"}");
    }

    @Test
    void shouldWriteNullCursorWhenNoFurtherItem() {
        assertThat(text(ListingJson.page(new ListingPage(List.of(), false), null)))
                .isEqualTo("{\"items\":[],\"nextCursor\":null}");
    }

    @Test
    void shouldSortBrandsByCountThenValueWhenRenderingFacets() {
        FacetCounts facets = new FacetCounts(10, 4, Map.of("zeta", 3L, "acme", 3L, "big", 4L, "\"q\"", 1L), 100L, 900L);
        assertThat(text(ListingJson.facets(facets, 100))).isEqualTo("{\"total\":10,\"inStock\":4,\"brands\":["
                + "{\"value\":\"big\",\"count\":4},{\"value\":\"acme\",\"count\":3},{\"value\":\"zeta\",\"count\":3},"
                + "{\"value\":\"\\\"q\\\"\",\"count\":1}],\"price\":{\"min\":100,\"max\":900}}");
    }

    @Test
    void shouldCutBrandsWhenMoreThanBrandLimit() {
        FacetCounts facets = new FacetCounts(6, 0, Map.of("a", 1L, "b", 2L, "c", 3L), 5L, 5L);
        assertThat(text(ListingJson.facets(facets, 2))).contains("\"brands\":[{\"value\":\"c\",\"count\":3},"
                + "{\"value\":\"b\",\"count\":2}]");
    }

    @Test
    void shouldOrderBrandValuesByCodePointWhenCountsTie() {
        // U+FF21 (fullwidth A) sorts before U+1F600 by code point, after it by UTF-16 unit.
        List<Map.Entry<String, Long>> top = ListingJson.topBrands(Map.of("\uD83D\uDE00", 1L, "\uFF21", 1L, "a", 1L), 10);
        assertThat(top).extracting(Map.Entry::getKey).containsExactly("a", "\uFF21", "\uD83D\uDE00");
    }

    @Test
    void shouldWriteNullPriceWhenNothingMatches() {
        assertThat(text(ListingJson.facets(FacetCounts.EMPTY, 100)))
                .isEqualTo("{\"total\":0,\"inStock\":0,\"brands\":[],\"price\":null}");
    }

    @Test
    void shouldSortCategoriesByNameWhenRendering() {
        List<CategoryCount> categories = List.of(new CategoryCount("phones", 3), new CategoryCount("audio", 1),
                new CategoryCount("phone", 2));
        assertThat(text(ListingJson.categories(categories))).isEqualTo("{\"categories\":["
                + "{\"category\":\"audio\",\"count\":1},{\"category\":\"phone\",\"count\":2},"
                + "{\"category\":\"phones\",\"count\":3}]}");
        assertThat(text(ListingJson.categories(List.of()))).isEqualTo("{\"categories\":[]}");
    }

    @Test
    void shouldMergeFacetsAndSumCategoriesWhenGathered() {
        FacetCounts a = new FacetCounts(2, 1, Map.of("acme", 2L), 100L, 200L);
        FacetCounts b = new FacetCounts(3, 3, Map.of("acme", 1L, "zeta", 2L), 50L, 150L);
        assertThat(ListingRoutes.mergeFacets(List.of(a, FacetCounts.EMPTY, b)))
                .isEqualTo(new FacetCounts(5, 4, Map.of("acme", 3L, "zeta", 2L), 50L, 200L));
        assertThat(ListingRoutes.mergeFacets(List.of())).isEqualTo(FacetCounts.EMPTY);
        assertThat(ListingRoutes.sumByCategory(List.of(List.of(new CategoryCount("b", 1), new CategoryCount("a", 3)),
                List.of(), List.of(new CategoryCount("a", 2))))).containsExactly(new CategoryCount("a", 5),
                new CategoryCount("b", 1));
    }
}
