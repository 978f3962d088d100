package io.catalogviews.cluster;

import io.catalogviews.broker.ChildProcessKafkaBroker;
import io.catalogviews.broker.EmbeddedKafkaBroker;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import io.catalogviews.events.codec.ProductEventCodec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The broker restarts (killed, then started again on the same port and data) under running instances. */
@Tag("system")
@Timeout(300)
class BrokerRestartIT {

    @Test
    void shouldApplyAndServeNewEventsWithoutManualActionWhenTheBrokerComesBack() throws Exception {
        String appId = "broker-it-" + UUID.randomUUID().toString().substring(0, 8);
        Path state = Path.of("target", "it-state", appId);
        try (ChildProcessKafkaBroker broker = ChildProcessKafkaBroker.start(
                EmbeddedKafkaBroker.Config.of(state.resolve("broker").toAbsolutePath()))) {
            ServiceProcess instance = ServiceProcess.start(broker.bootstrapServers(), appId, state.resolve("a"), 3, 0);
            try {
                instance.awaitReady(Duration.ofSeconds(90));
                publish(broker, appId, 1, 1_000);
                awaitPrice(instance, 1, 1_000);

                long down = System.currentTimeMillis();
                broker.kill();
                broker.restart();
                publish(broker, appId, 2, 2_000);
                awaitPrice(instance, 2, 2_000);
                System.out.printf("broker restart: new events served again %d ms after the broker was killed%n",
                        System.currentTimeMillis() - down);
                assertThat(instance.http().get("/health/ready").status()).isEqualTo(200);
                assertThat(instance.isAlive()).isTrue();
            } finally {
                instance.close();
            }
        }
    }

    private static void publish(ChildProcessKafkaBroker broker, String appId, long version, long price) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] value = ProductEventCodec.create().encodeSingleObject(
                    upsert(product("b-1", "acme", List.of("tvs"), price, 1, null), version));
            producer.send(new ProducerRecord<>(ServiceProcess.inputTopic(appId),
                    "b-1".getBytes(StandardCharsets.UTF_8), value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("publishing to the restarted broker failed", e);
        }
    }

    private static void awaitPrice(ServiceProcess instance, long version, long price) {
        await().alias("version " + version + " is served").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> {
                    HttpTestClient.Answer answer = instance.http().get("/v1/products/b-1?minVersion=" + version);
                    assertThat(answer.status()).isEqualTo(200);
                    assertThat(answer.json().get("priceCents").asLong()).isEqualTo(price);
                });
    }
}
