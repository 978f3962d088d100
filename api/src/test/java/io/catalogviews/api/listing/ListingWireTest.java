package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ListingWireTest {

    private static final ListingFilter FILTER =
            new ListingFilter(null, List.of("a,b", "Ünïcode \uD83D\uDE00"), 0L, 99L, false);

    @Test
    void shouldRoundTripPageRequestWhenEncoded() {
        ListingQuery query = new ListingQuery(FILTER, SortOrder.UPDATED_DESC, 200, new Position(-5L, "p-1"));
        ScatterRequest.PageRequest read = ScatterRequest.readPage(ScatterRequest.page(query, Set.of(11, 0, 3)), 12);
        assertThat(read.query()).isEqualTo(query);
        assertThat(read.partitions()).containsExactly(0, 3, 11);

        ListingQuery first = new ListingQuery(new ListingFilter(null, List.of(), null, null, null), SortOrder.PRICE,
                1, null);
        assertThat(ScatterRequest.readPage(ScatterRequest.page(first, Set.of(0)), 1).query()).isEqualTo(first);
    }

    @Test
    void shouldRoundTripFacetAndCategoryRequestsWhenEncoded() {
        ScatterRequest.FacetRequest facets = ScatterRequest.readFacets(ScatterRequest.facets(FILTER, Set.of(4)), 12);
        assertThat(facets.filter()).isEqualTo(FILTER);
        assertThat(facets.partitions()).containsExactly(4);
        assertThat(ScatterRequest.readCategories(ScatterRequest.categories(Set.of(1, 2)), 12)).containsExactly(1, 2);
    }

    @Test
    void shouldRejectRequestNamingBodyWhenPartitionsAreOutOfRange() {
        byte[] body = ScatterRequest.categories(Set.of(12));
        assertBadBody(() -> ScatterRequest.readCategories(body, 12));
        assertBadBody(() -> ScatterRequest.readCategories(ScatterRequest.categories(Set.of()), 12));
    }

    @Test
    void shouldRejectRequestNamingBodyWhenKindDoesNotMatchTheRoute() {
        byte[] facets = ScatterRequest.facets(FILTER, Set.of(1));
        assertBadBody(() -> ScatterRequest.readPage(facets, 12));
        assertBadBody(() -> ScatterRequest.readCategories(facets, 12));
    }

    @Test
    void shouldOnlyEverRejectWithBadRequestWhenRequestBodiesAreGarbage() {
        ListingQuery query = new ListingQuery(FILTER, SortOrder.RATING_DESC, 20, new Position(3, "x"));
        byte[] page = ScatterRequest.page(query, Set.of(1, 2));
        byte[] facets = ScatterRequest.facets(FILTER, Set.of(1, 2));
        fuzz(page, bytes -> {
            try {
                ScatterRequest.readPage(bytes, 12);
            } catch (ApiException e) {
                assertThat(e.status()).isEqualTo(400);
                assertThat(e.parameter()).isEqualTo("body");
            }
        });
        fuzz(facets, bytes -> {
            try {
                ScatterRequest.readFacets(bytes, 12);
                ScatterRequest.readCategories(bytes, 12);
            } catch (ApiException e) {
                assertThat(e.status()).isEqualTo(400);
            }
        });
    }

    @Test
    void shouldRoundTripAnswersWhenFramed() {
        ListingPage page = new ListingPage(List.of(
                new ListingItem(new Position(Long.MIN_VALUE, "a"), "{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8)),
                new ListingItem(new Position(1, "b"), new byte[0])), true);
        ListingPage read = ListingFrames.readPage(ListingFrames.page(page));
        assertThat(read.more()).isTrue();
        assertThat(read.items()).hasSize(2);
        assertThat(read.items().get(0).position()).isEqualTo(page.items().get(0).position());
        assertThat(read.items().get(0).json()).isEqualTo(page.items().get(0).json());
        assertThat(read.items().get(1).json()).isEmpty();

        ListingPage cut = new ListingPage(List.of(page.items().get(1)), false, new Position(-1L, "z~9"));
        ListingPage readCut = ListingFrames.readPage(ListingFrames.page(cut));
        assertThat(readCut.scannedTo()).isEqualTo(cut.scannedTo());
        assertThat(readCut.more()).isFalse();
        assertThat(readCut.items()).extracting(ListingItem::position).containsExactly(new Position(1, "b"));
        ListingPage end = ListingFrames.readPage(ListingFrames.page(new ListingPage(List.of(), false)));
        assertThat(end.next()).isNull();
        assertThat(end.cut()).isFalse();

        FacetCounts facets = new FacetCounts(9, 2, Map.of("acme", 5L, "a,b", 4L), 1L, 2L);
        assertThat(ListingFrames.readFacets(ListingFrames.facets(facets))).isEqualTo(facets);
        assertThat(ListingFrames.readFacets(ListingFrames.facets(FacetCounts.EMPTY))).isEqualTo(FacetCounts.EMPTY);
        assertThat(ListingFrames.readFacets(ListingFrames.facets(FacetCounts.OVER_BUDGET)))
                .isEqualTo(FacetCounts.OVER_BUDGET);

        List<CategoryCount> categories = List.of(new CategoryCount("phones", 3), new CategoryCount("audio", 1));
        assertThat(ListingFrames.readCategories(ListingFrames.categories(categories))).isEqualTo(categories);
    }

    @Test
    void shouldOnlyEverThrowMalformedWhenAnswersAreGarbage() {
        ListingPage page = new ListingPage(List.of(new ListingItem(new Position(1, "b"), new byte[]{'{', '}'})), false);
        fuzz(ListingFrames.page(page), bytes -> {
            try {
                ListingFrames.readPage(bytes);
            } catch (Wire.Malformed expected) {
                // the caller turns it into a 503
            }
        });
        fuzz(ListingFrames.page(new ListingPage(page.items(), false, new Position(7, "c"))), bytes -> {
            try {
                ListingFrames.readPage(bytes);
            } catch (Wire.Malformed expected) {
                // the caller turns it into a 503
            }
        });
        fuzz(ListingFrames.facets(new FacetCounts(1, 1, Map.of("x", 1L), 1L, 1L)), bytes -> {
            try {
                ListingFrames.readFacets(bytes);
            } catch (Wire.Malformed expected) {
                // the caller turns it into a 503
            }
        });
        fuzz(ListingFrames.categories(List.of(new CategoryCount("c", 1))), bytes -> {
            try {
                ListingFrames.readCategories(bytes);
            } catch (Wire.Malformed expected) {
                // the caller turns it into a 503
            }
        });
    }

    /** Truncations, byte flips and random bytes of a valid input. */
    private static void fuzz(byte[] valid, Consumer<byte[]> read) {
        for (int n = 0; n < valid.length; n++) {
            read.accept(Arrays.copyOf(valid, n));
        }
        Random random = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            byte[] bytes = valid.clone();
            for (int k = 0; k <= random.nextInt(3); k++) {
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt();
            }
            read.accept(bytes);
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            read.accept(noise);
        }
        read.accept(null);
    }

    private static void assertBadBody(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        ApiException e = catchThrowableOfType(ApiException.class, call);
        assertThat(e).isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.parameter()).isEqualTo("body");
    }
}
