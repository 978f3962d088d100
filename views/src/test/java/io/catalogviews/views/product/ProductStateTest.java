package io.catalogviews.views.product;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.ProductEvents;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProductStateTest {

    @Test
    void shouldGiveBackAnEqualProductWhenEncodedAndDecoded() {
        Product product = ProductEvents.product("p-1", "SKU-1", "Phone ✓ \"X\"", "acme", List.of("a", "b"),
                Long.MAX_VALUE, "EUR", 0, 4.3f, Map.of("color", "black", "日本", ""),
                Instant.parse("9999-12-31T23:59:59.999Z"));

        assertThat(ProductState.decode(ProductState.encode(product))).isEqualTo(product);
    }

    @Test
    void shouldKeepAMissingRatingWhenEncodedAndDecoded() {
        Product product = ProductEvents.product("p-1", "acme", "phones", 1L, 1, Instant.EPOCH);

        assertThat(ProductState.decode(ProductState.encode(product)).getRating()).isNull();
    }

    @Test
    void shouldRejectWithIllegalStateWhenTheBytesAreNotAProduct() {
        assertThatThrownBy(() -> ProductState.decode(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ProductState.decode(new byte[0])).isInstanceOf(IllegalStateException.class);
    }
}
