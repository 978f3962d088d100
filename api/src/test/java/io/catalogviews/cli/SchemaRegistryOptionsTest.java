package io.catalogviews.cli;

import io.catalogviews.events.registry.RegistryAuth;
import io.catalogviews.events.registry.RegistryClientSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The schema registry options of {@code serve}, from flags, environment and the {@code --config} file. */
class SchemaRegistryOptionsTest {

    @TempDir
    Path dir;

    private static RegistryClientSettings registry(Map<String, String> env, String... serveArgs) {
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(List.of(serveArgs));
        CommandLine.ParseResult result = CatalogViewsCli.commandLine(env).parseArgs(args.toArray(String[]::new));
        ServeCommand serve = result.subcommand().commandSpec().commandLine().getCommand();
        return serve.options.toConfig().schemaRegistry();
    }

    @Test
    void shouldConfigureNoRegistryWhenNoUrlIsGiven() {
        assertThat(registry(Map.of())).isNull();
    }

    @Test
    void shouldReadTheUrlFromTheEnvironmentWhenNoFlagIsGiven() {
        RegistryClientSettings settings = registry(Map.of("CATALOG_VIEWS_SCHEMA_REGISTRY_URL",
                "http://apicurio:8080/apis/ccompat/v7/"));

        assertThat(settings.apiRoot()).hasToString("http://apicurio:8080/apis/ccompat/v7");
        assertThat(settings.auth()).isEqualTo(RegistryAuth.NONE);
    }

    @Test
    void shouldTakeCredentialsAndTimeoutsFromTheFileAndTheUserInfoFromTheEnvironment() throws IOException {
        Path file = dir.resolve("registry.properties");
        Files.writeString(file, "schema.registry.request.timeout.ms=900\nlookup.retry.budget.ms=60000\n");

        RegistryClientSettings settings = registry(Map.of("CATALOG_VIEWS_SCHEMA_REGISTRY_USER_INFO", "shop:s3cret"),
                "--schema-registry-url", "https://registry:8081", "--schema-registry-config", file.toString());

        assertThat(settings.auth()).isEqualTo(new RegistryAuth.Basic("shop:s3cret"));
        assertThat(settings.requestTimeout()).isEqualTo(Duration.ofMillis(900));
        assertThat(settings.retryBudget()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void shouldReadTheUrlFromTheConfigFileWhenNeitherFlagNorEnvironmentSetsIt() throws IOException {
        Path config = dir.resolve("catalog-views.properties");
        Files.writeString(config, "schema-registry-url=http://registry:8081\n");

        assertThat(registry(Map.of(), "--config", config.toString()).apiRoot()).hasToString("http://registry:8081");
    }

    @Test
    void shouldNameTheOptionWhenCredentialsComeWithoutAUrl() {
        assertThatThrownBy(() -> registry(Map.of(), "--schema-registry-bearer-token", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("need --schema-registry-url");
    }

    @Test
    void shouldNameTheOptionWhenTheUrlIsNotOne() {
        assertThatThrownBy(() -> registry(Map.of(), "--schema-registry-url", "registry:8081"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--schema-registry-url: schema registry URL must look like");
    }
}
