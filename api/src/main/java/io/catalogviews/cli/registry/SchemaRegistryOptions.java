package io.catalogviews.cli.registry;

import io.catalogviews.events.registry.RegistryClientSettings;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The schema registry options of {@code serve}, {@code demo} and {@code publish}: where the registry's
 * Confluent-compatible API is, and how to authenticate to it, in the style of the Kafka client options (a properties
 * file for TLS and credentials, the keys a Confluent serializer's configuration uses).
 */
public final class SchemaRegistryOptions {

    public static final String URL_OPTION = "--schema-registry-url";

    @Option(names = URL_OPTION, paramLabel = "<url>", defaultValue = "${env:CATALOG_VIEWS_SCHEMA_REGISTRY_URL}",
            description = "Root of a schema registry's Confluent-compatible REST API (Confluent: http://host:8081; "
                    + "Apicurio Registry: http://host:8080/apis/ccompat/v7). With it, values framed as the Confluent "
                    + "serializers write them (0x00, 4-byte schema id, Avro binary) are decoded with the schema "
                    + "registered under the id. Env: CATALOG_VIEWS_SCHEMA_REGISTRY_URL. Default: none (that framing "
                    + "is dead-lettered as undecodable).")
    public String url;

    @Option(names = "--schema-registry-config", paramLabel = "<file>",
            defaultValue = "${env:CATALOG_VIEWS_SCHEMA_REGISTRY_CONFIG}",
            description = "Schema registry client properties, as a Confluent serializer takes them (each key also "
                    + "accepted with the schema.registry. prefix): basic.auth.user.info=<user>:<password>, "
                    + "bearer.auth.token, ssl.truststore.location/password/type, ssl.keystore.location/password/type, "
                    + "ssl.key.password, request.timeout.ms (2000), lookup.retry.budget.ms (240000: how long "
                    + "ingestion waits for an unreachable registry before the stream thread is replaced). "
                    + "Env: CATALOG_VIEWS_SCHEMA_REGISTRY_CONFIG. Default: none.")
    public Path config;

    @Option(names = "--schema-registry-user-info", paramLabel = "<user:password>",
            defaultValue = "${env:CATALOG_VIEWS_SCHEMA_REGISTRY_USER_INFO}",
            description = "HTTP basic credentials for the schema registry. Prefer "
                    + "CATALOG_VIEWS_SCHEMA_REGISTRY_USER_INFO or the config file to the flag, which other users can "
                    + "see. Default: none.")
    public String userInfo;

    @Option(names = "--schema-registry-bearer-token", paramLabel = "<token>",
            defaultValue = "${env:CATALOG_VIEWS_SCHEMA_REGISTRY_BEARER_TOKEN}",
            description = "Bearer token for the schema registry. Prefer CATALOG_VIEWS_SCHEMA_REGISTRY_BEARER_TOKEN or "
                    + "the config file to the flag. Default: none.")
    public String bearerToken;

    /**
     * The subject a topic's value schema is registered under: Confluent's default TopicNameStrategy,
     * {@code <topic>-value} ({@code catalog.product-events-value}).
     */
    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    /** Whether a registry URL was given. */
    public boolean configured() {
        return url != null && !url.isBlank();
    }

    /**
     * The registry client settings, or null without {@value #URL_OPTION}.
     *
     * @throws IllegalArgumentException naming the option or key when a value is unusable
     */
    public RegistryClientSettings toSettings() {
        if (!configured()) {
            if (config != null || userInfo != null || bearerToken != null) {
                throw new IllegalArgumentException("--schema-registry-config, --schema-registry-user-info and "
                        + "--schema-registry-bearer-token need " + URL_OPTION);
            }
            return null;
        }
        Map<String, String> properties = new LinkedHashMap<>(config == null ? Map.of() : read(config));
        String source = config == null ? "the schema registry options" : "--schema-registry-config " + config;
        if (userInfo != null) {
            properties.put("basic.auth.user.info", userInfo);
        }
        if (bearerToken != null) {
            properties.put("bearer.auth.token", bearerToken);
        }
        try {
            RegistryClientSettings.apiRoot(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(URL_OPTION + ": " + e.getMessage(), e);
        }
        return RegistryClientSettings.fromProperties(url, properties, source);
    }

    private static Map<String, String> read(Path file) {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("--schema-registry-config " + file + " cannot be read: "
                    + e.getMessage(), e);
        }
        Map<String, String> map = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }
}
