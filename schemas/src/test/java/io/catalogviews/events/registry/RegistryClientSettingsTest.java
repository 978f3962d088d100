package io.catalogviews.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryClientSettingsTest {

  @Test
  void shouldDropTheTrailingSlashWhenTheUrlHasOne() {
    assertThat(RegistryClientSettings.of("http://registry:8080/apis/ccompat/v7/").apiRoot())
        .hasToString("http://registry:8080/apis/ccompat/v7");
  }

  @Test
  void shouldNameTheApicurioPathWhenTheUrlIsNotHttp() {
    assertThatThrownBy(() -> RegistryClientSettings.of("registry:8081")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/apis/ccompat/v7").hasMessageContaining("'registry:8081'");
  }

  @Test
  void shouldRefuseCredentialsInTheUrlWithoutRepeatingThem() {
    assertThatThrownBy(() -> RegistryClientSettings.of("https://shop:s3cret@registry/"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("s3cret");
  }

  @Test
  void shouldNameTheKeyWhenAPropertyIsUnknown() {
    assertThatThrownBy(() -> RegistryClientSettings.fromProperties("http://r", Map.of("basic.auth.userinfo", "a:b"),
        "--schema-registry-config f.properties")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--schema-registry-config f.properties: unknown schema registry client property"
            + " 'basic.auth.userinfo'");
  }

  @Test
  void shouldRefuseBothBasicAndBearerWhenBothAreSet() {
    assertThatThrownBy(() -> RegistryClientSettings.fromProperties("http://r", Map.of("basic.auth.user.info", "a:b",
        "bearer.auth.token", "t"), "src")).hasMessage("src: set basic.auth.user.info or bearer.auth.token, not both");
  }

  @Test
  void shouldReadTimeoutsAndHideSecretsWhenGivenConfluentStyleKeys() {
    RegistryClientSettings settings = RegistryClientSettings.fromProperties("http://r",
        Map.of("schema.registry.basic.auth.user.info", "shop:s3cret", "request.timeout.ms", "750",
            "lookup.retry.budget.ms", "1500"), "src");

    assertThat(settings.requestTimeout()).isEqualTo(Duration.ofMillis(750));
    assertThat(settings.retryBudget()).isEqualTo(Duration.ofMillis(1500));
    assertThat(settings.toString()).contains("user=shop").doesNotContain("s3cret");
  }

  @Test
  void shouldNameTheKeyWhenTheTrustStoreCannotBeRead() {
    assertThatThrownBy(() -> RegistryClientSettings.fromProperties("https://r",
        Map.of("ssl.truststore.location", "/no/such/truststore.p12"), "src"))
        .hasMessageStartingWith("src: ssl.truststore.location /no/such/truststore.p12 cannot be read");
  }
}
