package io.catalogviews.it;

import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.service.CatalogService;
import io.catalogviews.service.ServiceConfig;
import io.catalogviews.service.config.OperationsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.awaitility.Awaitility.await;

/**
 * A real service instance in the test JVM (real Kafka Streams, RocksDB and Jetty on a random port) with its
 * own application id and topics, so tests sharing the broker do not see each other's data.
 */
public final class InProcessService implements AutoCloseable {

    private final CatalogService service;
    private final HttpTestClient http;
    private final String inputTopic;
    private final String deadLetterTopic;

    private InProcessService(CatalogService service, String inputTopic, String deadLetterTopic) {
        this.service = service;
        this.inputTopic = inputTopic;
        this.deadLetterTopic = deadLetterTopic;
        this.http = new HttpTestClient("http://localhost:" + service.httpPort());
    }

    public static InProcessService start(String name, int partitions) {
        return start(name, partitions, OperationsConfig.defaults());
    }

    /** With Kafka client properties, an admin token or the request log. */
    public static InProcessService start(String name, int partitions, OperationsConfig operations) {
        return start(name, partitions, operations, Map.of());
    }

    /** With Kafka Streams overrides ({@code --streams-config}). */
    public static InProcessService start(String name, int partitions, Map<String, String> streamsOverrides) {
        return start(name, partitions, OperationsConfig.defaults(), streamsOverrides);
    }

    /** With a schema registry ({@code --schema-registry-url} and its client settings). */
    public static InProcessService start(String name, int partitions, RegistryClientSettings schemaRegistry) {
        return start(name, partitions, OperationsConfig.defaults(), Map.of(), schemaRegistry);
    }

    /** With a schema registry and Kafka Streams overrides. */
    public static InProcessService start(String name, int partitions, RegistryClientSettings schemaRegistry,
                                         Map<String, String> streamsOverrides) {
        return start(name, partitions, OperationsConfig.defaults(), streamsOverrides, schemaRegistry);
    }

    private static InProcessService start(String name, int partitions, OperationsConfig operations,
                                          Map<String, String> streamsOverrides) {
        return start(name, partitions, operations, streamsOverrides, null);
    }

    private static InProcessService start(String name, int partitions, OperationsConfig operations,
                                          Map<String, String> streamsOverrides, RegistryClientSettings registry) {
        String unique = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        int port = ServiceProcess.freePort();
        ServiceConfig defaults = ServiceConfig.defaults(Path.of("target", "it-state", unique));
        String input = unique + ".product-events";
        String dlq = input + ".dlq";
        ServiceConfig config = new ServiceConfig(TestKafka.bootstrapServers(), 0, port, "http://localhost:" + port,
                defaults.stateDir(), partitions, 0, unique, defaults.deletedRetention(), input, dlq,
                defaults.inputRetention(), 1, 32L * 1024 * 1024, streamsOverrides, registry);
        CatalogService service = CatalogService.start(config, operations);
        InProcessService it = new InProcessService(service, input, dlq);
        await().alias("service " + unique + " is ready").atMost(Duration.ofSeconds(60))
                .until(() -> it.http.get("/health/ready").status() == 200);
        return it;
    }

    public HttpTestClient http() {
        return http;
    }

    public CatalogService service() {
        return service;
    }

    public String inputTopic() {
        return inputTopic;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    @Override
    public void close() {
        service.close();
    }
}
