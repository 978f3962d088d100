package io.catalogviews.api.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminTokenTest {

    @Test
    void shouldRequireNothingWhenNoTokenIsConfigured() {
        assertThat(AdminToken.of(null).isRequired()).isFalse();
        assertThat(AdminToken.of("").isRequired()).isFalse();
    }

    @Test
    void shouldRefuseTheTokenNamingTheOptionWhenItIsTooShort() {
        assertThatThrownBy(() -> AdminToken.of("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--admin-token").hasMessageContaining("16");
    }

    @Test
    void shouldRefuseTheTokenWhenItHoldsWhitespace() {
        assertThatThrownBy(() -> AdminToken.of("a token with spaces in it"))
                .hasMessageContaining("--admin-token");
    }

    @Test
    void shouldNotRevealTheTokenWhenPrinted() {
        assertThat(AdminToken.of("0123456789abcdef-secret")).hasToString("AdminToken[configured]");
    }
}
