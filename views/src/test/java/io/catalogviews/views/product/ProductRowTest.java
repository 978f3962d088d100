package io.catalogviews.views.product;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProductRowTest {

    private static final byte[] JSON = "{\"id\":\"p-42\",\"name\":\"Phone ✓\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STATE = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -128, 127};

    @Test
    void shouldGiveBackTheSameLiveRowWhenEncodedAndDecoded() {
        ProductRow row = ProductRow.live(7L, JSON, STATE);

        ProductRow decoded = ProductRow.decode(row.encode());

        assertThat(decoded).isEqualTo(row);
        assertThat(decoded.renderVersion()).isEqualTo(ProductJson.RENDER_VERSION);
        assertThat(decoded.version()).isEqualTo(7L);
        assertThat(decoded.deleted()).isFalse();
        assertThat(decoded.deletedAtMs()).isZero();
        assertThat(decoded.json()).isEqualTo(JSON);
        assertThat(decoded.state()).isEqualTo(STATE);
    }

    @Test
    void shouldGiveBackTheSameDeletionMarkerWhenEncodedAndDecoded() {
        ProductRow marker = ProductRow.deletionMarker(12L, 1_764_504_000_123L);

        ProductRow decoded = ProductRow.decode(marker.encode());

        assertThat(decoded).isEqualTo(marker);
        assertThat(decoded.deleted()).isTrue();
        assertThat(decoded.version()).isEqualTo(12L);
        assertThat(decoded.deletedAtMs()).isEqualTo(1_764_504_000_123L);
        assertThat(decoded.json()).isEmpty();
        assertThat(decoded.state()).isEmpty();
    }

    @Test
    void shouldKeepExtremeValuesWhenEncodedAndDecoded() {
        ProductRow row = new ProductRow(255, Long.MAX_VALUE, true, Long.MAX_VALUE, new byte[0], new byte[0]);

        ProductRow decoded = ProductRow.decode(row.encode());

        assertThat(decoded).isEqualTo(row);
        assertThat(decoded.renderVersion()).isEqualTo(255);
    }

    @Test
    void shouldKeepTheDocumentedByteLayoutWhenEncoded() {
        byte[] bytes = ProductRow.live(0x0102030405060708L, JSON, STATE).encode();
        ByteBuffer buf = ByteBuffer.wrap(bytes);

        assertThat(bytes).hasSize(23 + JSON.length + STATE.length);
        assertThat(buf.get(0)).isEqualTo((byte) 1);
        assertThat(buf.get(1)).isEqualTo((byte) ProductJson.RENDER_VERSION);
        assertThat(buf.get(2)).isEqualTo((byte) 0);
        assertThat(buf.getLong(3)).isEqualTo(0x0102030405060708L);
        assertThat(bytes[3]).as("big-endian version").isEqualTo((byte) 0x01);
        assertThat(buf.getLong(11)).isZero();
        assertThat(buf.getInt(19)).isEqualTo(JSON.length);
        assertThat(Arrays.copyOfRange(bytes, 23, 23 + JSON.length)).isEqualTo(JSON);
        assertThat(Arrays.copyOfRange(bytes, 23 + JSON.length, bytes.length)).isEqualTo(STATE);
    }

    @Test
    void shouldSetTheDeletedFlagAndDeletionTimeWhenEncodingAMarker() {
        byte[] bytes = ProductRow.deletionMarker(3L, 1000L).encode();
        ByteBuffer buf = ByteBuffer.wrap(bytes);

        assertThat(bytes).hasSize(23);
        assertThat(buf.get(2) & 1).isEqualTo(1);
        assertThat(buf.getLong(11)).isEqualTo(1000L);
        assertThat(buf.getInt(19)).isZero();
    }

    @Test
    void shouldReadTheVersionWithoutDecodingWhenVersionOfIsUsed() {
        assertThat(ProductRow.versionOf(ProductRow.live(42L, JSON, STATE).encode())).isEqualTo(42L);
        assertThat(ProductRow.versionOf(ProductRow.deletionMarker(Long.MAX_VALUE, 5L).encode()))
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldTellDeletionMarkersFromLiveRowsWhenIsDeletedRowIsUsed() {
        assertThat(ProductRow.isDeletedRow(ProductRow.live(1L, JSON, STATE).encode())).isFalse();
        assertThat(ProductRow.isDeletedRow(ProductRow.deletionMarker(1L, 5L).encode())).isTrue();
    }

    @Test
    void shouldSliceOutExactlyTheJsonWhenJsonOfIsUsed() {
        byte[] bytes = ProductRow.live(1L, JSON, STATE).encode();

        byte[] json = ProductRow.jsonOf(bytes);
        json[0] = 'X';

        assertThat(ProductRow.jsonOf(bytes)).as("a copy, not a view of the row").isEqualTo(JSON);
        assertThat(ProductRow.jsonOf(ProductRow.deletionMarker(1L, 5L).encode())).isEmpty();
    }

    @Test
    void shouldCompareRowsByContentWhenArraysAreDistinctCopies() {
        ProductRow a = ProductRow.live(5L, JSON.clone(), STATE.clone());
        ProductRow b = ProductRow.live(5L, JSON.clone(), STATE.clone());

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(ProductRow.live(6L, JSON, STATE));
        assertThat(a).isNotEqualTo(ProductRow.live(5L, JSON, new byte[] {1}));
    }

    static Stream<Arguments> malformedRows() {
        byte[] wrongFormat = ProductRow.live(1L, JSON, STATE).encode();
        wrongFormat[0] = 2;
        return Stream.of(
                Arguments.of(Named.of("null", null)),
                Arguments.of(Named.of("zero bytes", new byte[0])),
                Arguments.of(Named.of("one byte of the right format", new byte[] {1})),
                Arguments.of(Named.of("a header cut short (22 bytes)", Arrays.copyOf(
                        ProductRow.deletionMarker(1L, 1L).encode(), 22))),
                Arguments.of(Named.of("an unknown format byte", wrongFormat)),
                Arguments.of(Named.of("JSON text instead of a row", JSON)));
    }

    static Stream<Arguments> accessors() {
        return Stream.of(
                Arguments.of(Named.<Consumer<byte[]>>of("decode", ProductRow::decode)),
                Arguments.of(Named.<Consumer<byte[]>>of("versionOf", ProductRow::versionOf)),
                Arguments.of(Named.<Consumer<byte[]>>of("isDeletedRow", ProductRow::isDeletedRow)),
                Arguments.of(Named.<Consumer<byte[]>>of("jsonOf", ProductRow::jsonOf)));
    }

    static Stream<Arguments> malformedRowsForEachAccessor() {
        return accessors().flatMap(accessor -> malformedRows()
                .map(row -> Arguments.of(accessor.get()[0], row.get()[0])));
    }

    @ParameterizedTest(name = "{0} of {1}")
    @MethodSource("malformedRowsForEachAccessor")
    void shouldRejectWithIllegalArgumentWhenBytesAreNotARow(Consumer<byte[]> accessor, byte[] bytes) {
        assertThatThrownBy(() -> accessor.accept(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a product row");
    }

    @Test
    void shouldRejectWithIllegalArgumentWhenDecodingAJsonLengthBeyondTheRow() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), JSON.length + STATE.length + 1);

        assertThatThrownBy(() -> ProductRow.decode(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JSON length");
    }

    @Test
    void shouldRejectWithIllegalArgumentWhenDecodingANegativeJsonLength() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), -1);

        assertThatThrownBy(() -> ProductRow.decode(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectWithIllegalArgumentWhenDecodingAHugeJsonLength() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), Integer.MAX_VALUE);

        assertThatThrownBy(() -> ProductRow.decode(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldAcceptAJsonLengthThatEndsExactlyAtTheRowEndWhenDecoding() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), JSON.length + STATE.length);

        ProductRow decoded = ProductRow.decode(bytes);

        assertThat(decoded.json()).hasSize(JSON.length + STATE.length);
        assertThat(decoded.state()).isEmpty();
    }

    @Test
    void shouldRejectWithIllegalArgumentWhenJsonOfMeetsANegativeJsonLength() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), -1);

        assertThatThrownBy(() -> ProductRow.jsonOf(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectWithIllegalArgumentWhenJsonOfMeetsAJsonLengthBeyondTheRow() {
        byte[] bytes = withJsonLength(ProductRow.live(1L, JSON, STATE).encode(), JSON.length + STATE.length + 1);

        assertThatThrownBy(() -> ProductRow.jsonOf(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] withJsonLength(byte[] row, int length) {
        ByteBuffer.wrap(row).putInt(19, length);
        return row;
    }
}
