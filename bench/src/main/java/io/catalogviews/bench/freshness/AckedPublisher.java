package io.catalogviews.bench.freshness;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * The freshness phase's producer: every event in the Avro single-object encoding, keyed by product id (murmur2, the
 * contract's partitioning), idempotent, {@code acks=all}, sent at once ({@code linger.ms=0}); each send tells when
 * the broker acknowledged it, the moment freshness is measured from (the event is then durable and readable).
 */
final class AckedPublisher implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final ProductEventCodec codec = ProductEventCodec.create();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    AckedPublisher(String bootstrapServers, String topic) {
        this.topic = topic;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Sends {@code event}; {@code onAck} receives the {@link System#nanoTime()} of its acknowledgement, on the
     * producer's I/O thread (it must not block).
     */
    void publish(ProductEvent event, LongConsumer onAck) {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("publishing to " + topic + " failed: " + e.getMessage(), e);
        }
        producer.send(new ProducerRecord<>(topic, event.getProductId().getBytes(StandardCharsets.UTF_8),
                codec.encodeSingleObject(event)), (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            } else {
                onAck.accept(System.nanoTime());
            }
        });
    }

    void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
