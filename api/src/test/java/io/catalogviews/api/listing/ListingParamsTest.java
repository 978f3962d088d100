package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ListingParamsTest {

    /** name=value pairs, in order; a repeated name gets several values. */
    private static Map<String, List<String>> q(String... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.computeIfAbsent(pairs[i], k -> new ArrayList<>()).add(pairs[i + 1]);
        }
        return map;
    }

    private static void assertBadRequest(String parameter, ThrowingCallable call) {
        ApiException e = catchThrowableOfType(ApiException.class, call);
        assertThat(e).as("expected a 400 naming %s", parameter).isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("bad_request");
        assertThat(e.parameter()).isEqualTo(parameter);
    }

    // ---------------------------------------------------------------- defaults

    @Test
    void shouldApplyDefaultsWhenNoParameterIsGiven() {
        ListingParams.PageParams page = ListingParams.page(q());
        assertThat(page.filter()).isEqualTo(new ListingFilter(null, List.of(), null, null, null));
        assertThat(page.sort()).isEqualTo(SortOrder.PRICE);
        assertThat(page.limit()).isEqualTo(20);
        assertThat(page.cursor()).isNull();

        ListingParams.FacetParams facets = ListingParams.facets(q());
        assertThat(facets.filter().isWholeCatalog()).isTrue();
        assertThat(facets.brandLimit()).isEqualTo(100);
    }

    @Test
    void shouldParseEveryParameterWhenAllAreValid() {
        ListingParams.PageParams page = ListingParams.page(q("category", "phones", "brand", "zeta", "brand", "acme",
                "minPrice", "100", "maxPrice", "5000", "inStock", "true", "sort", "-rating", "limit", "200",
                "cursor", "abc"));
        assertThat(page.filter()).isEqualTo(new ListingFilter("phones", List.of("acme", "zeta"), 100L, 5000L, true));
        assertThat(page.sort()).isEqualTo(SortOrder.RATING_DESC);
        assertThat(page.limit()).isEqualTo(200);
        assertThat(page.cursor()).isEqualTo("abc");

        ListingParams.FacetParams facets = ListingParams.facets(q("category", "phones", "brand", "acme",
                "minPrice", "0", "maxPrice", "0", "inStock", "false", "brandLimit", "1000"));
        assertThat(facets.filter()).isEqualTo(new ListingFilter("phones", List.of("acme"), 0L, 0L, false));
        assertThat(facets.brandLimit()).isEqualTo(1000);
    }

    // ---------------------------------------------------------------- unknown, repeated, empty

    @Test
    void shouldRejectUnknownParameterWhenGivenNamingIt() {
        assertBadRequest("colour", () -> ListingParams.page(q("colour", "red")));
        assertBadRequest("Category", () -> ListingParams.page(q("Category", "phones")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sort", "limit", "cursor"})
    void shouldRejectPageOnlyParameterWhenGivenToFacets(String name) {
        assertBadRequest(name, () -> ListingParams.facets(q(name, "1")));
    }

    @Test
    void shouldRejectBrandLimitWhenGivenToProducts() {
        assertBadRequest("brandLimit", () -> ListingParams.page(q("brandLimit", "10")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"category", "minPrice", "maxPrice", "inStock", "sort", "limit", "cursor"})
    void shouldRejectSingleValuedPageParameterWhenRepeated(String name) {
        String value = switch (name) {
            case "category" -> "phones";
            case "inStock" -> "true";
            case "sort" -> "price";
            case "cursor" -> "abc";
            default -> "5";
        };
        assertBadRequest(name, () -> ListingParams.page(q(name, value, name, value)));
    }

    @Test
    void shouldRejectBrandLimitWhenRepeated() {
        assertBadRequest("brandLimit", () -> ListingParams.facets(q("brandLimit", "5", "brandLimit", "5")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"category", "brand", "minPrice", "maxPrice", "inStock", "sort", "limit", "cursor"})
    void shouldRejectEmptyValueWhenGiven(String name) {
        assertBadRequest(name, () -> ListingParams.page(q(name, "")));
    }

    @Test
    void shouldRejectEmptyBrandLimitWhenGiven() {
        assertBadRequest("brandLimit", () -> ListingParams.facets(q("brandLimit", "")));
    }

    // ---------------------------------------------------------------- category

    @ParameterizedTest
    @ValueSource(strings = {"a", "0", "phones", "home-garden", "a-", "x1-2-3"})
    void shouldAcceptCategoryWhenItMatchesTheGrammar(String category) {
        assertThat(ListingParams.page(q("category", category)).filter().category()).isEqualTo(category);
        assertThat(ListingParams.facets(q("category", category)).filter().category()).isEqualTo(category);
    }

    @Test
    void shouldAcceptCategoryWhenItIsSixtyFourCharactersLong() {
        String category = "a".repeat(64);
        assertThat(ListingParams.page(q("category", category)).filter().category()).isEqualTo(category);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-phones", "Phones", "phones ", "pho_nes", "phönes", "a/b", "phones\u0000"})
    void shouldRejectCategoryWhenItBreaksTheGrammar(String category) {
        assertBadRequest("category", () -> ListingParams.page(q("category", category)));
        assertBadRequest("category", () -> ListingParams.facets(q("category", category)));
    }

    @Test
    void shouldRejectCategoryWhenLongerThanSixtyFourCharacters() {
        assertBadRequest("category", () -> ListingParams.page(q("category", "a".repeat(65))));
    }

    // ---------------------------------------------------------------- brand

    @Test
    void shouldKeepCommaInBrandWhenGiven() {
        assertThat(ListingParams.page(q("brand", "a,b")).filter().brands()).containsExactly("a,b");
    }

    @Test
    void shouldSortAndDeduplicateBrandsWhenRepeated() {
        assertThat(ListingParams.page(q("brand", "b", "brand", "a", "brand", "b", "brand", "A")).filter().brands())
                .containsExactly("A", "a", "b");
    }

    @Test
    void shouldAcceptTwentyBrandsWhenGiven() {
        String[] pairs = new String[40];
        for (int i = 0; i < 20; i++) {
            pairs[2 * i] = "brand";
            pairs[2 * i + 1] = "b" + i;
        }
        assertThat(ListingParams.page(q(pairs)).filter().brands()).hasSize(20);
        assertThat(ListingParams.facets(q(pairs)).filter().brands()).hasSize(20);
    }

    @Test
    void shouldRejectBrandsWhenMoreThanTwentyValuesAreGiven() {
        String[] pairs = new String[42];
        for (int i = 0; i < 21; i++) {
            pairs[2 * i] = "brand";
            pairs[2 * i + 1] = "same";
        }
        assertBadRequest("brand", () -> ListingParams.page(q(pairs)));
        assertBadRequest("brand", () -> ListingParams.facets(q(pairs)));
    }

    @Test
    void shouldAcceptBrandWhenItIs128CharactersIncludingSupplementaryOnes() {
        String brand = "\uD83D\uDE00".repeat(128); // 128 code points, 256 UTF-16 units
        assertThat(ListingParams.page(q("brand", brand)).filter().brands()).containsExactly(brand);
        assertThat(ListingParams.page(q("brand", "b".repeat(128))).filter().brands()).hasSize(1);
    }

    @Test
    void shouldRejectBrandWhenLongerThan128Characters() {
        assertBadRequest("brand", () -> ListingParams.page(q("brand", "b".repeat(129))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ac\u0000me", "acme\n", "\tacme", "ac\u007Fme", "ac\u0085me"})
    void shouldRejectBrandWhenItHoldsControlCharacters(String brand) {
        assertBadRequest("brand", () -> ListingParams.page(q("brand", brand)));
        assertBadRequest("brand", () -> ListingParams.facets(q("brand", brand)));
    }

    @Test
    void shouldRejectEmptyBrandWhenAmongValidOnes() {
        assertBadRequest("brand", () -> ListingParams.page(q("brand", "acme", "brand", "")));
    }

    // ---------------------------------------------------------------- prices

    @ParameterizedTest
    @ValueSource(strings = {"minPrice", "maxPrice"})
    void shouldAcceptPriceWhenItIsANonNegativeInteger(String name) {
        assertThat(bound(ListingParams.page(q(name, "0")).filter(), name)).isZero();
        assertThat(bound(ListingParams.page(q(name, "007")).filter(), name)).isEqualTo(7L);
        assertThat(bound(ListingParams.facets(q(name, "9223372036854775807")).filter(), name))
                .isEqualTo(Long.MAX_VALUE);
    }

    private static Long bound(ListingFilter filter, String name) {
        return name.equals("minPrice") ? filter.minPrice() : filter.maxPrice();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "+1", "1.5", "1e3", " 1", "abc", "9223372036854775808", "99999999999999999999",
            "0x10", "١"})
    void shouldRejectPriceWhenNotANonNegativeInteger(String value) {
        assertBadRequest("minPrice", () -> ListingParams.page(q("minPrice", value)));
        assertBadRequest("maxPrice", () -> ListingParams.page(q("maxPrice", value)));
        assertBadRequest("minPrice", () -> ListingParams.facets(q("minPrice", value)));
        assertBadRequest("maxPrice", () -> ListingParams.facets(q("maxPrice", value)));
    }

    @Test
    void shouldAcceptEqualPricesWhenMinEqualsMax() {
        ListingFilter filter = ListingParams.page(q("minPrice", "500", "maxPrice", "500")).filter();
        assertThat(filter.minPrice()).isEqualTo(500L);
        assertThat(filter.maxPrice()).isEqualTo(500L);
    }

    @Test
    void shouldRejectPricesNamingMinPriceWhenMinIsAboveMax() {
        assertBadRequest("minPrice", () -> ListingParams.page(q("minPrice", "501", "maxPrice", "500")));
        assertBadRequest("minPrice", () -> ListingParams.facets(q("maxPrice", "0", "minPrice", "1")));
    }

    // ---------------------------------------------------------------- inStock, sort

    @Test
    void shouldParseInStockWhenTrueOrFalse() {
        assertThat(ListingParams.page(q("inStock", "true")).filter().inStock()).isTrue();
        assertThat(ListingParams.page(q("inStock", "false")).filter().inStock()).isFalse();
        assertThat(ListingParams.facets(q("inStock", "false")).filter().inStock()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TRUE", "True", "1", "0", "yes", "false ", "t"})
    void shouldRejectInStockWhenNotExactlyTrueOrFalse(String value) {
        assertBadRequest("inStock", () -> ListingParams.page(q("inStock", value)));
        assertBadRequest("inStock", () -> ListingParams.facets(q("inStock", value)));
    }

    @Test
    void shouldParseEverySortWhenGivenByItsWireName() {
        assertThat(ListingParams.page(q("sort", "price")).sort()).isEqualTo(SortOrder.PRICE);
        assertThat(ListingParams.page(q("sort", "-price")).sort()).isEqualTo(SortOrder.PRICE_DESC);
        assertThat(ListingParams.page(q("sort", "-updatedAt")).sort()).isEqualTo(SortOrder.UPDATED_DESC);
        assertThat(ListingParams.page(q("sort", "-rating")).sort()).isEqualTo(SortOrder.RATING_DESC);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rating", "updatedAt", "+price", " price", "-Price", "-updatedat", "name", "PRICE"})
    void shouldRejectSortWhenNotAContractSort(String value) {
        assertBadRequest("sort", () -> ListingParams.page(q("sort", value)));
    }

    // ---------------------------------------------------------------- limit, brandLimit, cursor

    @ParameterizedTest
    @ValueSource(strings = {"1", "20", "199", "200", "0200"})
    void shouldAcceptLimitWhenInRange(String value) {
        assertThat(ListingParams.page(q("limit", value)).limit()).isEqualTo(Integer.parseInt(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "201", "-1", "+5", "1.0", "ten", "99999999999999999999999"})
    void shouldRejectLimitWhenOutOfRange(String value) {
        assertBadRequest("limit", () -> ListingParams.page(q("limit", value)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "100", "1000"})
    void shouldAcceptBrandLimitWhenInRange(String value) {
        assertThat(ListingParams.facets(q("brandLimit", value)).brandLimit()).isEqualTo(Integer.parseInt(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1001", "-5", "x", "1e2"})
    void shouldRejectBrandLimitWhenOutOfRange(String value) {
        assertBadRequest("brandLimit", () -> ListingParams.facets(q("brandLimit", value)));
    }

    @Test
    void shouldRejectCursorWhenAbsurdlyLong() {
        assertBadRequest("cursor", () -> ListingParams.page(q("cursor", "A".repeat(513))));
    }
}
