package io.catalogviews.api.routing;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestTargetTest {

    @Test
    void shouldEncodeEveryCharacterButTheUnreservedOnesWhenBuildingAQuery() {
        String target = RequestTarget.path("/v1/products").param("category", "phones")
                .params("brand", List.of("a|b", "{x}", "\"q\"", "x^y", "sp ace+", "100%", "é", "A-z.0_9~"))
                .param("limit", 20).param("inStock", true).param("cursor", null).encoded();

        assertThat(target).isEqualTo("/v1/products?category=phones&brand=a%7Cb&brand=%7Bx%7D&brand=%22q%22"
                + "&brand=x%5Ey&brand=sp%20ace%2B&brand=100%25&brand=%C3%A9&brand=A-z.0_9~&limit=20&inStock=true");
    }

    @Test
    void shouldGiveAValidUriThatDecodesToTheSameValuesWhenValuesAreRandom() {
        SplittableRandom random = new SplittableRandom(20261201L);
        for (int i = 0; i < 5_000; i++) {
            List<String> values = new ArrayList<>();
            for (int v = 0; v < 3; v++) {
                StringBuilder value = new StringBuilder();
                int length = random.nextInt(1, 12);
                for (int c = 0; c < length; c++) {
                    value.appendCodePoint(random.nextBoolean() ? random.nextInt(0x20, 0x7f)
                            : random.nextInt(0xa0, 0x2fff));
                }
                values.add(value.toString());
            }
            RequestTarget target = RequestTarget.path("/v1/products").segment(values.get(0))
                    .params("brand", values.subList(1, 3));

            URI uri = URI.create("http://localhost:1" + target.encoded());

            assertThat(uri.getPath()).isEqualTo("/v1/products/" + values.get(0));
            List<String> decoded = new ArrayList<>();
            for (String pair : uri.getRawQuery().split("&")) {
                decoded.add(URLDecoder.decode(pair.substring("brand=".length()), StandardCharsets.UTF_8));
            }
            assertThat(decoded).containsExactlyElementsOf(values.subList(1, 3));
        }
    }

    @Test
    void shouldRefuseARoutePathThatNeedsEncodingWhenCreated() {
        assertThatThrownBy(() -> RequestTarget.path("/v1/products?x=1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RequestTarget.path("v1")).isInstanceOf(IllegalArgumentException.class);
    }
}
