package io.catalogviews.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.cli.demo.SyntheticCatalog;
import io.catalogviews.cli.registry.SchemaRegistryOptions;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.DecodeResult;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.events.codec.SchemaVersions;
import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.events.registry.SchemaRegistryClient;
import io.catalogviews.service.config.KafkaClientConfig;
import io.catalogviews.topology.TopologySettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code catalog-views publish}: Avro-JSON events, one per line, to the input topic on the right partitions.
 * A line {@code {"tombstone":"<id>"}} publishes a tombstone. Lines that do not decode are reported with their
 * line number and skipped; the exit code is 1 when any was. With {@code --schema-registry-url}, the event schema is
 * registered under {@code <topic>-value} (Confluent's TopicNameStrategy) and the events are written in the
 * Confluent framing with its id, as a shop's Confluent or Apicurio serializer would write them.
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = "Publish Avro-JSON product events (one per line) from a file or stdin.")
public final class PublishCommand implements Callable<Integer> {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Option(names = "--bootstrap-servers", defaultValue = "${env:CATALOG_VIEWS_BOOTSTRAP_SERVERS:-localhost:9092}",
            description = "Kafka bootstrap servers. Default: ${DEFAULT-VALUE}.")
    String bootstrapServers;

    @Option(names = "--topic", defaultValue = "${env:CATALOG_VIEWS_INPUT_TOPIC:-" + TopologySettings.DEFAULT_INPUT_TOPIC
            + "}", description = "Topic. Default: ${DEFAULT-VALUE}.")
    String topic;

    @Option(names = {"--file", "-f"}, defaultValue = "-", description = "File to read, '-' for stdin. Default: stdin.")
    String file;

    @Option(names = "--encoding",
            description = "Record value encoding: json (the line as given), single-object (Avro binary) or "
                    + "schema-registry (0x00, 4-byte schema id, Avro binary: needs --schema-registry-url). "
                    + "Default: schema-registry with --schema-registry-url, else json.")
    String encoding;

    @Mixin
    SchemaRegistryOptions schemaRegistry = new SchemaRegistryOptions();

    @Option(names = "--kafka-config", paramLabel = "<file>", defaultValue = "${env:CATALOG_VIEWS_KAFKA_CONFIG}",
            description = "Kafka client properties file (security.protocol, sasl.*, ssl.*, ...) for the producer. "
                    + "Env: CATALOG_VIEWS_KAFKA_CONFIG. Default: none.")
    Path kafkaConfig;

    @Option(names = "--synthetic", paramLabel = "<products>",
            description = "Instead of reading events, publish the deterministic demo catalog of this many products "
                    + "(the one `demo` publishes, version 1 upserts). Default: off.")
    Integer synthetic;

    @Option(names = "--seed", defaultValue = "42",
            description = "Seed of the --synthetic catalog. Default: ${DEFAULT-VALUE}.")
    long seed;

    /** How each event is written; the registry framing knows its schema id once registered. */
    private interface ValueWriter {
        void publish(EventPublisher publisher, ProductEvent event);
    }

    @Override
    public Integer call() throws IOException {
        RegistryClientSettings registry = schemaRegistry.toSettings();
        String chosen = encoding != null ? encoding : registry != null ? "schema-registry" : "json";
        ValueWriter writer = switch (chosen) {
            case "json" -> (publisher, event) -> publisher.publish(event, EventPublisher.Encoding.JSON);
            case "single-object" -> (publisher, event) -> publisher.publish(event,
                    EventPublisher.Encoding.SINGLE_OBJECT);
            case "schema-registry" -> {
                if (registry == null) {
                    throw new IllegalArgumentException("--encoding schema-registry needs "
                            + SchemaRegistryOptions.URL_OPTION);
                }
                String subject = SchemaRegistryOptions.valueSubject(topic);
                int id = SchemaRegistryClient.create(registry).register(subject, SchemaVersions.current());
                System.err.println("registered the event schema under subject " + subject + " (schema id " + id
                        + ")");
                yield (publisher, event) -> publisher.publishFramed(event, id);
            }
            default -> throw new IllegalArgumentException("--encoding must be json, single-object or schema-registry,"
                    + " was '" + encoding + "'");
        };
        KafkaClientConfig kafkaClient = KafkaClientConfig.load(kafkaConfig);
        if (synthetic != null) {
            return publishSynthetic(kafkaClient, writer);
        }
        ProductEventCodec codec = ProductEventCodec.create();
        int published = 0;
        int rejected = 0;
        try (BufferedReader in = reader(); EventPublisher publisher = new EventPublisher(bootstrapServers, topic,
                kafkaClient)) {
            String line;
            int lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String tombstone = tombstoneId(line);
                if (tombstone != null) {
                    publisher.publishTombstone(tombstone);
                    published++;
                    continue;
                }
                DecodeResult result = codec.decode(line.getBytes(StandardCharsets.UTF_8));
                if (result instanceof DecodeResult.Undecodable undecodable) {
                    System.err.println("line " + lineNumber + ": not a ProductEvent in Avro JSON: "
                            + undecodable.detail());
                    rejected++;
                    continue;
                }
                ProductEvent event = ((DecodeResult.Decoded) result).event();
                writer.publish(publisher, event);
                published++;
            }
            publisher.flush();
        }
        System.err.println("published " + published + " records to " + topic
                + (rejected > 0 ? "; rejected " + rejected + " lines" : ""));
        return rejected > 0 ? 1 : 0;
    }

    private int publishSynthetic(KafkaClientConfig kafkaClient, ValueWriter writer) {
        if (synthetic < 1) {
            throw new IllegalArgumentException("--synthetic must be >= 1, was " + synthetic);
        }
        if (!"-".equals(file)) {
            throw new IllegalArgumentException("--synthetic publishes generated events; it cannot be combined with "
                    + "--file");
        }
        SyntheticCatalog catalog = new SyntheticCatalog(seed, SyntheticCatalog.DEMO_BASE_TIME);
        ProgressBar progress = new ProgressBar(System.err, "publishing products", synthetic);
        try (EventPublisher publisher = new EventPublisher(bootstrapServers, topic, kafkaClient)) {
            for (int i = 0; i < synthetic; i++) {
                writer.publish(publisher, catalog.upsert(i));
                progress.update(publisher.acknowledged());
            }
            publisher.flush();
            progress.finish(publisher.acknowledged());
        }
        System.err.println("published " + synthetic + " synthetic products to " + topic);
        return 0;
    }

    private BufferedReader reader() throws IOException {
        return "-".equals(file)
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
    }

    /** The id of a {@code {"tombstone":"<id>"}} line, or null for any other line. */
    static String tombstoneId(String line) {
        if (!line.contains("\"tombstone\"")) {
            return null;
        }
        try {
            JsonNode node = MAPPER.readTree(line);
            if (node != null && node.isObject() && node.size() == 1 && node.path("tombstone").isTextual()) {
                return node.get("tombstone").asText();
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }
}
