package io.catalogviews.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.DecodeResult;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.topology.TopologySettings;
import picocli.CommandLine.Command;
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
 * line number and skipped; the exit code is 1 when any was.
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

    @Option(names = "--encoding", defaultValue = "json",
            description = "Record value encoding: json (the line as given) or single-object (Avro binary). "
                    + "Default: ${DEFAULT-VALUE}.")
    String encoding;

    @Override
    public Integer call() throws IOException {
        boolean singleObject = switch (encoding) {
            case "json" -> false;
            case "single-object" -> true;
            default -> throw new IllegalArgumentException("--encoding must be json or single-object, was '"
                    + encoding + "'");
        };
        ProductEventCodec codec = ProductEventCodec.create();
        int published = 0;
        int rejected = 0;
        try (BufferedReader in = reader(); EventPublisher publisher = new EventPublisher(bootstrapServers, topic)) {
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
                publisher.publish(event, singleObject ? EventPublisher.Encoding.SINGLE_OBJECT
                        : EventPublisher.Encoding.JSON);
                published++;
            }
            publisher.flush();
        }
        System.err.println("published " + published + " records to " + topic
                + (rejected > 0 ? "; rejected " + rejected + " lines" : ""));
        return rejected > 0 ? 1 : 0;
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
