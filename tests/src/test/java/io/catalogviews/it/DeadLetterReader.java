package io.catalogviews.it;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reads committed dead letters from a topic, as an operator's consumer would. */
public final class DeadLetterReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();

    public DeadLetterReader(String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
    }

    /** Everything read so far, after one more poll. */
    public List<ConsumerRecord<byte[], byte[]>> poll() {
        consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        return seen;
    }

    public static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
