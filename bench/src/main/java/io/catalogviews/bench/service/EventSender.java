package io.catalogviews.bench.service;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Publishes product events in the contract's Avro single-object encoding, keyed by product id (Kafka's Java
 * producer places a keyed record by murmur2, the contract's rule); idempotent, {@code acks=all}, batched.
 */
public final class EventSender implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final ProductEventCodec codec = ProductEventCodec.create();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public EventSender(String bootstrapServers, String topic, int lingerMs) {
        this.topic = topic;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, lingerMs,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    public void send(ProductEvent event) {
        send(event, null);
    }

    /** Sends one event; {@code onAck} (may be null) runs on the producer's thread when the broker acknowledged. */
    public void send(ProductEvent event, Runnable onAck) {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("publishing to " + topic + " failed: " + e.getMessage(), e);
        }
        byte[] key = event.getProductId().getBytes(StandardCharsets.UTF_8);
        Callback callback = (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            } else {
                acknowledged.incrementAndGet();
                if (onAck != null) {
                    onAck.run();
                }
            }
        };
        producer.send(new ProducerRecord<>(topic, key, codec.encodeSingleObject(event)), callback);
    }

    public long acknowledged() {
        return acknowledged.get();
    }

    public void flush() {
        producer.flush();
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("publishing to " + topic + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
