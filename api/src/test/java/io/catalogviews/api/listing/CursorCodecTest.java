package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.Position;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class CursorCodecTest {

    private static final ListingFilter FILTER = new ListingFilter("phones", List.of("acme", "zeta"), 100L, 900L, true);
    private static final Position POSITION = new Position(0x8000_0000_0000_1234L, "p-42");
    private final CursorCodec codec = new CursorCodec("catalog-views");

    private static void assertBadCursor(ThrowingCallable call) {
        ApiException e = catchThrowableOfType(ApiException.class, call);
        assertThat(e).as("expected a 400 naming cursor").isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("bad_request");
        assertThat(e.parameter()).isEqualTo("cursor");
    }

    @Test
    void shouldRoundTripPositionWhenDecodedForTheSameQuery() {
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        assertThat(cursor).matches("[A-Za-z0-9_-]+");
        assertThat(codec.decode(cursor, FILTER, SortOrder.PRICE)).isEqualTo(POSITION);
    }

    @Test
    void shouldRoundTripExtremePositionsWhenEncoded() {
        for (long sortValue : new long[]{0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32}) {
            for (String id : List.of("a", "x".repeat(128), "A.b_c:d~e-f")) {
                Position position = new Position(sortValue, id);
                ListingFilter wholeCatalog = new ListingFilter(null, List.of(), null, null, null);
                String cursor = codec.encode(position, wholeCatalog, SortOrder.RATING_DESC);
                assertThat(codec.decode(cursor, wholeCatalog, SortOrder.RATING_DESC)).isEqualTo(position);
            }
        }
    }

    @Test
    void shouldAcceptCursorWhenOnlyTheBrandOrderDiffers() {
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        ListingFilter reordered = new ListingFilter("phones", List.of("zeta", "acme"), 100L, 900L, true);
        assertThat(codec.decode(cursor, reordered, SortOrder.PRICE)).isEqualTo(POSITION);
    }

    @Test
    void shouldRejectCursorWhenAnyByteIsTampered() {
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        assertThat(codec.decode(cursor, FILTER, SortOrder.PRICE)).as("verified once, then remembered")
                .isEqualTo(POSITION);
        byte[] bytes = Base64.getUrlDecoder().decode(cursor);
        for (int i = 0; i < bytes.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] tampered = bytes.clone();
                tampered[i] ^= (byte) (1 << bit);
                String text = Base64.getUrlEncoder().withoutPadding().encodeToString(tampered);
                assertBadCursor(() -> codec.decode(text, FILTER, SortOrder.PRICE));
            }
        }
    }

    @Test
    void shouldRejectCursorWhenTruncatedOrExtended() {
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        for (int length = 0; length < cursor.length(); length++) {
            String truncated = cursor.substring(0, length);
            assertBadCursor(() -> codec.decode(truncated, FILTER, SortOrder.PRICE));
        }
        assertBadCursor(() -> codec.decode(cursor + "A", FILTER, SortOrder.PRICE));
        assertBadCursor(() -> codec.decode(cursor + "AAAA", FILTER, SortOrder.PRICE));
        assertBadCursor(() -> codec.decode(cursor + "=", FILTER, SortOrder.PRICE));
        assertBadCursor(() -> codec.decode(null, FILTER, SortOrder.PRICE));
    }

    @Test
    void shouldRejectCursorWhenDecodedForAnotherQuery() {
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        assertThat(codec.decode(cursor, FILTER, SortOrder.PRICE)).as("verified for its own query, then remembered")
                .isEqualTo(POSITION);
        List<ListingFilter> others = List.of(
                new ListingFilter("phone", FILTER.brands(), 100L, 900L, true),
                new ListingFilter(null, FILTER.brands(), 100L, 900L, true),
                new ListingFilter("phones", List.of("acme"), 100L, 900L, true),
                new ListingFilter("phones", List.of("acme", "zeta", "x"), 100L, 900L, true),
                new ListingFilter("phones", List.of(), 100L, 900L, true),
                new ListingFilter("phones", FILTER.brands(), 101L, 900L, true),
                new ListingFilter("phones", FILTER.brands(), null, 900L, true),
                new ListingFilter("phones", FILTER.brands(), 100L, 901L, true),
                new ListingFilter("phones", FILTER.brands(), 100L, null, true),
                new ListingFilter("phones", FILTER.brands(), 900L, 100L, true),
                new ListingFilter("phones", FILTER.brands(), 100L, 900L, false),
                new ListingFilter("phones", FILTER.brands(), 100L, 900L, null));
        for (ListingFilter other : others) {
            assertBadCursor(() -> codec.decode(cursor, other, SortOrder.PRICE));
            assertThat(codec.decode(cursor, FILTER, SortOrder.PRICE)).isEqualTo(POSITION);
        }
        for (SortOrder sort : List.of(SortOrder.PRICE_DESC, SortOrder.UPDATED_DESC, SortOrder.RATING_DESC)) {
            assertBadCursor(() -> codec.decode(cursor, FILTER, sort));
            assertThat(codec.decode(cursor, FILTER, SortOrder.PRICE)).isEqualTo(POSITION);
        }
    }

    @Test
    void shouldNotConfuseBrandListsWhenConcatenationsAreEqual() {
        ListingFilter ab = new ListingFilter(null, List.of("a", "b"), null, null, null);
        ListingFilter joined = new ListingFilter(null, List.of("ab"), null, null, null);
        String cursor = codec.encode(POSITION, ab, SortOrder.PRICE);
        assertBadCursor(() -> codec.decode(cursor, joined, SortOrder.PRICE));
    }

    @Test
    void shouldRejectCursorWhenVersionIsUnknownEvenWithAValidMac() {
        // A future format: same layout, version 2, correctly signed by the same key.
        String cursor = codec.encode(POSITION, FILTER, SortOrder.PRICE);
        byte[] bytes = Base64.getUrlDecoder().decode(cursor);
        bytes[0] = 2;
        assertBadCursor(() -> codec.decode(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), FILTER,
                SortOrder.PRICE));
    }

    @Test
    void shouldInteroperateWhenTwoCodecsShareTheSecret() {
        CursorCodec other = new CursorCodec("catalog-views");
        String cursor = codec.encode(POSITION, FILTER, SortOrder.UPDATED_DESC);
        assertThat(other.encode(POSITION, FILTER, SortOrder.UPDATED_DESC)).isEqualTo(cursor);
        assertThat(other.decode(cursor, FILTER, SortOrder.UPDATED_DESC)).isEqualTo(POSITION);
    }

    @Test
    void shouldRejectCursorWhenIssuedWithAnotherSecret() {
        String cursor = new CursorCodec("another-deployment").encode(POSITION, FILTER, SortOrder.PRICE);
        assertBadCursor(() -> codec.decode(cursor, FILTER, SortOrder.PRICE));
    }

    @Test
    void shouldAcceptCursorsOfThePreviousSecretWhileItIsConfiguredAndMakeNewOnesWithTheCurrent() {
        String beforeRotation = new CursorCodec("first-cursor-secret").encode(POSITION, FILTER, SortOrder.PRICE);
        CursorCodec rotated = new CursorCodec("second-cursor-secret", "first-cursor-secret");

        assertThat(rotated.decode(beforeRotation, FILTER, SortOrder.PRICE)).isEqualTo(POSITION);
        String afterRotation = rotated.encode(POSITION, FILTER, SortOrder.PRICE);
        assertThat(afterRotation).isNotEqualTo(beforeRotation)
                .isEqualTo(new CursorCodec("second-cursor-secret").encode(POSITION, FILTER, SortOrder.PRICE));
        assertBadCursor(() -> rotated.decode(beforeRotation, FILTER, SortOrder.RATING_DESC));
    }

    @Test
    void shouldRejectCursorsOfASecretOnceItIsNoLongerThePreviousOne() {
        String first = new CursorCodec("first-cursor-secret").encode(POSITION, FILTER, SortOrder.PRICE);
        String second = new CursorCodec("second-cursor-secret", "first-cursor-secret")
                .encode(POSITION, FILTER, SortOrder.PRICE);
        CursorCodec rotatedTwice = new CursorCodec("third-cursor-secret", "second-cursor-secret");
        CursorCodec previousDropped = new CursorCodec("second-cursor-secret");

        assertThat(rotatedTwice.decode(second, FILTER, SortOrder.PRICE)).isEqualTo(POSITION);
        assertBadCursor(() -> rotatedTwice.decode(first, FILTER, SortOrder.PRICE));
        assertBadCursor(() -> previousDropped.decode(first, FILTER, SortOrder.PRICE));
        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> previousDropped.decode(first, FILTER, SortOrder.PRICE));
        assertThat(refused.getMessage()).contains("'cursor'").contains("retired secret");
    }

    @Test
    void shouldRefuseEmptySecretWhenConstructed() {
        assertThatThrownBy(() -> new CursorCodec("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CursorCodec(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldOnlyEverThrowBadRequestWhenGivenRandomInput() {
        Random random = new Random(20261130L);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .%\u00e9\u0000\uD83D";
        for (int i = 0; i < 20_000; i++) {
            String text;
            switch (i % 3) {
                case 0 -> {
                    byte[] bytes = new byte[random.nextInt(200)];
                    random.nextBytes(bytes);
                    if (bytes.length > 0 && random.nextBoolean()) {
                        bytes[0] = CursorCodec.VERSION;
                    }
                    text = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
                }
                case 1 -> {
                    StringBuilder sb = new StringBuilder();
                    int n = random.nextInt(300);
                    for (int k = 0; k < n; k++) {
                        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                    text = sb.toString();
                }
                default -> {
                    char[] chars = codec.encode(new Position(random.nextLong(), "p" + random.nextInt()), FILTER,
                            SortOrder.PRICE).toCharArray();
                    chars[random.nextInt(chars.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
                    text = new String(chars);
                }
            }
            String cursor = text;
            try {
                Position decoded = codec.decode(cursor, FILTER, SortOrder.PRICE);
                // Only an untouched cursor can decode (a replaced character may equal the original one).
                assertThat(codec.encode(decoded, FILTER, SortOrder.PRICE)).isEqualTo(cursor);
            } catch (ApiException e) {
                assertThat(e.status()).isEqualTo(400);
                assertThat(e.parameter()).isEqualTo("cursor");
            }
        }
    }
}
