package io.catalogviews.it;

import io.catalogviews.cli.CatalogViewsCli;
import io.catalogviews.service.config.KafkaClientConfig;
import io.catalogviews.service.config.OperationsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code --kafka-config} reaches every kind of Kafka client the service creates: the Kafka Streams application
 * and its consumers, producers and admin, the Admin that creates the topics, and the producer of
 * {@code publish}. The file names a recording metrics reporter and a distinctive {@code reconnect.backoff.ms};
 * each client that instantiates the reporter shows its kind and the properties it was given.
 */
@Tag("integration")
@Timeout(180)
class KafkaClientConfigIT {

    private static final String MARKER = "reconnect.backoff.ms";
    private static final String MARKER_VALUE = "77";

    @Test
    void shouldPassKafkaClientPropertiesToStreamsAdminAndProducerWhenAKafkaConfigFileIsGiven(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("kafka.properties");
        Files.writeString(file, String.join("\n",
                "# what a secured deployment would set, plus a reporter that records each client",
                "security.protocol=PLAINTEXT",
                "metric.reporters=" + RecordingMetricsReporter.class.getName(),
                MARKER + "=" + MARKER_VALUE, ""));
        RecordingMetricsReporter.clear();

        try (InProcessService service = InProcessService.start("kafka-config-it", 2,
                OperationsConfig.defaults().withKafkaClient(KafkaClientConfig.load(file)))) {
            int exit = CatalogViewsCli.commandLine(Map.of()).execute("publish",
                    "--bootstrap-servers", service.service().bootstrapServers(), "--topic", service.inputTopic(),
                    "--kafka-config", file.toString(), "--synthetic", "3");
            assertThat(exit).isZero();
            // Applied is counted before the transaction commits; the committed read comes a moment later.
            await().alias("the 3 synthetic products are served").atMost(Duration.ofSeconds(60))
                    .until(() -> service.service().counters().applied() == 3
                            && service.http().get("/v1/products/p-0000002").status() == 200);
        }

        List<RecordingMetricsReporter.Seen> seen = RecordingMetricsReporter.seen();
        assertThat(seen).extracting(RecordingMetricsReporter.Seen::namespace)
                .contains("kafka.streams", "kafka.consumer", "kafka.producer", "kafka.admin.client");
        assertThat(seen).allSatisfy(client -> {
            assertThat(client.configs().get(MARKER)).as("%s of %s", MARKER, client.clientId())
                    .hasToString(MARKER_VALUE);
            assertThat(client.configs().get("security.protocol")).hasToString("PLAINTEXT");
        });
        assertThat(seen).as("the Admin that creates the topics")
                .anySatisfy(client -> assertThat(client).matches(c -> c.namespace().equals("kafka.admin.client")
                        && !c.clientId().contains("kafka-config-it")));
        assertThat(seen).as("the producer of publish")
                .anySatisfy(client -> assertThat(client).matches(c -> c.namespace().equals("kafka.producer")
                        && !c.clientId().contains("StreamThread")));
        assertThat(seen).as("the producers of the stream threads")
                .anySatisfy(client -> assertThat(client).matches(c -> c.namespace().equals("kafka.producer")
                        && c.clientId().contains("StreamThread")));
    }
}
