package io.catalogviews.bench.catalog;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProductJsonTextTest {

    @Test
    void shouldWriteTheShortestDecimalWhenARatingIsWhole() {
        assertThat(ProductJsonText.shortest(5f)).isEqualTo("5");
        assertThat(ProductJsonText.shortest(1f)).isEqualTo("1");
        assertThat(ProductJsonText.shortest(4.3f)).isEqualTo("4.3");
        assertThat(ProductJsonText.shortest(2.5f)).isEqualTo("2.5");
    }
}
