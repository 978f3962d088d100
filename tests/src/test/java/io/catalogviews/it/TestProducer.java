package io.catalogviews.it;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** A plain Kafka producer, as a shop's producer would be: keyed by product id, default partitioner. */
public final class TestProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final ProductEventCodec codec = ProductEventCodec.create();

    public TestProducer(String topic) {
        this.topic = topic;
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A generated history event as it goes on the wire: single-object or JSON encoded, or a tombstone. */
    public void send(HistoryEvent e) {
        ProductEvent avro = e.toAvro();
        if (avro == null) {
            sendRaw(e.productId(), null);
        } else if (e.json()) {
            sendJson(avro);
        } else {
            sendSingleObject(avro);
        }
    }

    public void sendSingleObject(ProductEvent e) {
        sendRaw(e.getProductId(), codec.encodeSingleObject(e));
    }

    public void sendJson(ProductEvent e) {
        sendRaw(e.getProductId(), codec.encodeJson(e).getBytes(StandardCharsets.UTF_8));
    }

    public void sendRaw(String key, byte[] value) {
        sendRaw(key, value, new RecordHeaders());
    }

    public void sendRaw(String key, byte[] value, RecordHeaders headers) {
        try {
            producer.send(new ProducerRecord<>(topic, null, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                    value, headers)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("send to " + topic + " failed", e.getCause());
        }
    }

    /** Sends to an explicit partition, bypassing the key's partition (to provoke wrong_partition). */
    public void sendToPartition(int partition, String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, key.getBytes(StandardCharsets.UTF_8), value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("send to " + topic + " failed", e.getCause());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
