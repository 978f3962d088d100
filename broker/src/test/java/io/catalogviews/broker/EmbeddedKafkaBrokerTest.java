package io.catalogviews.broker;

import static io.catalogviews.broker.KafkaTestClients.createTopic;
import static io.catalogviews.broker.KafkaTestClients.readCommittedValues;
import static io.catalogviews.broker.KafkaTestClients.sendInTransaction;
import static io.catalogviews.broker.KafkaTestClients.topicNames;
import static io.catalogviews.broker.KafkaTestClients.transactionalProducer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerTest {

    @Test
    void shouldServeOnlyCommittedTransactionsToReadCommittedConsumerWhenStartedOnFreePort(@TempDir Path dataDir)
            throws Exception {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(dataDir));
        try {
            assertThat(broker.port()).isPositive();
            assertThat(broker.controllerPort()).isPositive().isNotEqualTo(broker.port());
            assertThat(broker.bootstrapServers()).isEqualTo("localhost:" + broker.port());
            assertThat(broker.dataDir().resolve("kafka-logs/meta.properties")).exists();

            createTopic(broker.bootstrapServers(), "events", 3);
            try (KafkaProducer<String, String> producer =
                         transactionalProducer(broker.bootstrapServers(), "tx-events")) {
                sendInTransaction(producer, "events", List.of("a", "b", "c"), true);
                sendInTransaction(producer, "events", List.of("aborted-1", "aborted-2"), false);
                sendInTransaction(producer, "events", List.of("d", "e"), true);
            }

            assertThat(readCommittedValues(broker.bootstrapServers(), "events", "group-1"))
                    .containsExactlyInAnyOrder("a", "b", "c", "d", "e");
            assertThat(broker.fatalFault()).isEmpty();

            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(dataDir)))
                    .as("a second broker on the same data dir")
                    .isInstanceOf(EmbeddedKafkaBroker.StartException.class)
                    .hasMessageContaining("data directory is in use")
                    .hasMessageContaining(dataDir.toAbsolutePath().toString());
        } finally {
            broker.close();
        }
        assertThatCode(broker::close).as("second close").doesNotThrowAnyException();
        assertThatCode(() -> DataDirLock.acquire(dataDir, "after close").close())
                .as("data dir released by close").doesNotThrowAnyException();
    }

    @Test
    void shouldKeepClusterIdTopicsAndRecordsWhenRestartedOnSameDataDir(@TempDir Path dataDir) throws Exception {
        String clusterId;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(dataDir))) {
            clusterId = broker.clusterId();
            createTopic(broker.bootstrapServers(), "kept", 2);
            try (KafkaProducer<String, String> producer = transactionalProducer(broker.bootstrapServers(), "tx-kept")) {
                sendInTransaction(producer, "kept", List.of("one", "two", "three"), true);
            }
        }

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(dataDir))) {
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            assertThat(topicNames(broker.bootstrapServers())).contains("kept");
            assertThat(readCommittedValues(broker.bootstrapServers(), "kept", null))
                    .containsExactlyInAnyOrder("one", "two", "three");
            // The same transactional id carries on after the restart.
            try (KafkaProducer<String, String> producer = transactionalProducer(broker.bootstrapServers(), "tx-kept")) {
                sendInTransaction(producer, "kept", List.of("four"), true);
            }
            // The commit marker reaches the partition a moment after the commit returns; until then the last stable
            // offset, where a read-committed read ends, stops before "four".
            assertThat(Awaitility.await().alias("the record committed after the restart is readable")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> readCommittedValues(broker.bootstrapServers(), "kept", null),
                            values -> values.size() >= 4))
                    .containsExactlyInAnyOrder("one", "two", "three", "four");
        }
    }

    @Test
    void shouldFailNamingPortAndDataDirWhenPortIsInUse(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("localhost"), 0));
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(
                    EmbeddedKafkaBroker.Config.of(dataDir).withPort(port), Duration.ofSeconds(20)))
                    .isInstanceOf(EmbeddedKafkaBroker.StartException.class)
                    .hasMessageContaining("localhost:" + port)
                    .hasMessageContaining("already in use")
                    .hasMessageContaining(dataDir.toAbsolutePath().toString());
        }
    }

    @Test
    void shouldKeepJvmRunningAndThrowWhenKafkaHitsFatalFaultDuringStart(@TempDir Path dataDir) throws Exception {
        // Without the pre-check, a taken controller port reaches Kafka's ProcessTerminatingFaultHandler,
        // which would halt this JVM.
        EmbeddedKafkaBroker.checkPortsBeforeStart = false;
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("localhost"), 0));
            int controllerPort = taken.getLocalPort();

            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(
                    EmbeddedKafkaBroker.Config.of(dataDir).withControllerPort(controllerPort), Duration.ofSeconds(20)))
                    .isInstanceOf(EmbeddedKafkaBroker.StartException.class)
                    .hasMessageContaining("controller port " + controllerPort)
                    .hasMessageContaining(dataDir.toAbsolutePath().toString())
                    .hasMessageContaining("asked to halt the JVM");
        } finally {
            EmbeddedKafkaBroker.checkPortsBeforeStart = true;
        }
        assertThat(Files.exists(dataDir.resolve("kafka-logs/meta.properties"))).isTrue();
    }
}
