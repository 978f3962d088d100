package io.catalogviews.cli;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.service.config.KafkaClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Publishes product events keyed by product id. Kafka's Java producer places a keyed record by murmur2 of
 * the key, which is the partition rule of the contract; idempotent, acks=all, batched.
 */
public final class EventPublisher implements AutoCloseable {

    public enum Encoding { SINGLE_OBJECT, JSON }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final ProductEventCodec codec = ProductEventCodec.create();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public EventPublisher(String bootstrapServers, String topic) {
        this(bootstrapServers, topic, KafkaClientConfig.none());
    }

    /** With {@code kafkaClient}'s properties (security, TLS, SASL …) over this publisher's producer tuning. */
    public EventPublisher(String bootstrapServers, String topic, KafkaClientConfig kafkaClient) {
        this(bootstrapServers, topic, kafkaClient, Map.of());
    }

    /**
     * With {@code tuning} (producer properties, for example {@code linger.ms} 0 where each send's latency is
     * measured, as the benchmark's freshness phase does) over this publisher's own, and {@code kafkaClient}'s
     * properties over both.
     */
    public EventPublisher(String bootstrapServers, String topic, KafkaClientConfig kafkaClient,
                          Map<String, Object> tuning) {
        this.topic = topic;
        Map<String, Object> producerTuning = new HashMap<>(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"));
        producerTuning.putAll(tuning);
        this.producer = new KafkaProducer<>(kafkaClient.forProducer(bootstrapServers, producerTuning),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    public void publish(ProductEvent event, Encoding encoding) {
        byte[] value = encoding == Encoding.SINGLE_OBJECT ? codec.encodeSingleObject(event)
                : codec.encodeJson(event).getBytes(StandardCharsets.UTF_8);
        send(event.getProductId(), value);
    }

    /**
     * Publishes {@code event} in the Confluent Schema Registry framing, with {@code schemaId}: the id under which the
     * registry holds the current schema ({@code SchemaRegistryClient.register}).
     */
    public void publishFramed(ProductEvent event, int schemaId) {
        send(event.getProductId(), codec.encodeConfluent(schemaId, event));
    }

    public void publishTombstone(String productId) {
        send(productId, null);
    }

    private void send(String productId, byte[] value) {
        throwIfFailed();
        producer.send(new ProducerRecord<>(topic, productId.getBytes(StandardCharsets.UTF_8), value),
                (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        acknowledged.incrementAndGet();
                    }
                });
    }

    /** Events the broker has acknowledged so far. */
    public long acknowledged() {
        return acknowledged.get();
    }

    public void flush() {
        producer.flush();
        throwIfFailed();
    }

    private void throwIfFailed() {
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
