package io.catalogviews.it;

import io.catalogviews.broker.EmbeddedKafkaBroker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one Kafka broker of a test JVM, shared by its tests: Testcontainers' Kafka module (the official
 * {@code apache/kafka} image, pinned to the client version) where a Docker engine runs, otherwise the
 * project's embedded KRaft broker in this JVM. Each test isolates itself with its own topics and application id.
 */
public final class TestKafka {

    static final String KAFKA_IMAGE = "apache/kafka:4.4.0";
    private static String bootstrapServers;

    private TestKafka() {
    }

    public static synchronized String bootstrapServers() {
        if (bootstrapServers == null) {
            bootstrapServers = dockerAvailable() ? startContainer() : startEmbedded();
        }
        return bootstrapServers;
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @SuppressWarnings("resource")
    private static String startContainer() {
        KafkaContainer kafka = new KafkaContainer(KAFKA_IMAGE)
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        kafka.start();
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::stop, "test-kafka-stop"));
        return kafka.getBootstrapServers();
    }

    private static String startEmbedded() {
        try {
            Path dir = Files.createTempDirectory(Path.of("target"), "test-kafka-");
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(dir).withPort(0));
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "test-kafka-stop"));
            return broker.bootstrapServers();
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a data dir for the test broker", e);
        }
    }
}
