package io.catalogviews.service.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka client properties from {@code --kafka-config <file>} (a Java properties file: {@code security.protocol},
 * {@code sasl.*}, {@code ssl.*}, {@code client.dns.lookup}, config providers …), passed to every Kafka client
 * the service creates: the Kafka Streams application (and through it its consumers, producers and admin), the
 * {@link org.apache.kafka.clients.admin.Admin} that creates the topics, and the producer of {@code demo} and
 * {@code publish}. Properties the service owns are refused ({@link #OWNED}), with a message naming the option.
 * Immutable.
 */
public final class KafkaClientConfig {

    public static final String OPTION = "--kafka-config";
    /** Set by the service itself; refused in the file. */
    public static final Set<String> OWNED = Set.of("bootstrap.servers", "application.id", "application.server",
            "state.dir", "processing.guarantee", "key.serializer", "value.serializer", "key.deserializer",
            "value.deserializer");
    private static final KafkaClientConfig NONE = new KafkaClientConfig(Map.of(), null);

    private final Map<String, String> properties;
    private final Path source;

    private KafkaClientConfig(Map<String, String> properties, Path source) {
        this.properties = properties;
        this.source = source;
    }

    public static KafkaClientConfig none() {
        return NONE;
    }

    /** Properties given in code (tests, embedding); the same rules as a file. */
    public static KafkaClientConfig of(Map<String, String> properties) {
        return validated(new TreeMap<>(properties), null);
    }

    /** @throws IllegalArgumentException naming {@value #OPTION} when the file cannot be read or sets an owned key */
    public static KafkaClientConfig load(Path file) {
        if (file == null) {
            return NONE;
        }
        Map<String, String> properties = PropertiesFiles.read(file, OPTION);
        return validated(properties, file);
    }

    private static KafkaClientConfig validated(Map<String, String> properties, Path source) {
        String where = source == null ? OPTION : OPTION + " " + source;
        for (Map.Entry<String, String> e : properties.entrySet()) {
            if (e.getKey().isEmpty()) {
                throw new IllegalArgumentException(where + ": a property has an empty name");
            }
            if (OWNED.contains(e.getKey())) {
                throw new IllegalArgumentException(where + ": property '" + e.getKey() + "' is set by the service"
                        + (e.getKey().equals("bootstrap.servers") ? " (use --bootstrap-servers)" : "")
                        + " and must not appear here");
            }
        }
        return new KafkaClientConfig(Map.copyOf(properties), source);
    }

    public boolean isEmpty() {
        return properties.isEmpty();
    }

    /** The properties as given. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The file they came from, or null. */
    public Path source() {
        return source;
    }

    /** An Admin client's configuration: these properties plus {@code bootstrap.servers}. */
    public Map<String, Object> forAdmin(String bootstrapServers) {
        Map<String, Object> config = new LinkedHashMap<>(properties);
        config.put("bootstrap.servers", bootstrapServers);
        return config;
    }

    /**
     * A producer's configuration: {@code tuning} (defaults of the caller, which these properties may override),
     * then these properties, then {@code bootstrap.servers}.
     */
    public Map<String, Object> forProducer(String bootstrapServers, Map<String, Object> tuning) {
        Map<String, Object> config = new LinkedHashMap<>(tuning);
        config.putAll(properties);
        config.put("bootstrap.servers", bootstrapServers);
        return config;
    }

    /**
     * Kafka Streams overrides: these properties under {@code streamsOverrides} (the more specific
     * {@code --streams-config} wins over the general file).
     */
    public Map<String, String> forStreams(Map<String, String> streamsOverrides) {
        Map<String, String> config = new LinkedHashMap<>(properties);
        config.putAll(streamsOverrides);
        return config;
    }

    @Override
    public String toString() {
        // Values may be secrets (sasl.jaas.config, ssl.key.password): names only.
        return "KafkaClientConfig" + properties.keySet();
    }
}
