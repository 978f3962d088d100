package io.catalogviews.bench.service;

import io.catalogviews.cli.EventPublisher;
import io.catalogviews.service.config.KafkaClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.Map;

/**
 * The harness's producers: the CLI's {@link EventPublisher} (single-object encoding, keyed by id, idempotent,
 * {@code acks=all}, lz4 batches of 256 KB), with a 64 MB buffer for the load and churn phases, which send as fast
 * as the broker takes, and without linger for the freshness phase, whose clock starts at the send call.
 */
public final class Publishers {

    private static final long BUFFER_BYTES = 64L * 1024 * 1024;

    private Publishers() {
    }

    /** Batches for up to 20 ms: the load and churn phases. */
    public static EventPublisher batched(String bootstrapServers, String topic) {
        return publisher(bootstrapServers, topic, 20);
    }

    /** Sends at once: the freshness phase, where a linger would be counted as staleness. */
    public static EventPublisher immediate(String bootstrapServers, String topic) {
        return publisher(bootstrapServers, topic, 0);
    }

    private static EventPublisher publisher(String bootstrapServers, String topic, int lingerMs) {
        return new EventPublisher(bootstrapServers, topic, KafkaClientConfig.none(), Map.of(
                ProducerConfig.LINGER_MS_CONFIG, lingerMs,
                ProducerConfig.BUFFER_MEMORY_CONFIG, BUFFER_BYTES));
    }
}
