package io.catalogviews.topology;

import io.catalogviews.events.codec.EventDecoder;
import io.catalogviews.events.codec.ProductEventCodec;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything the topology depends on. The topology is a pure function of these settings.
 *
 * @param inputTopic        the product events topic (contract default {@value #DEFAULT_INPUT_TOPIC})
 * @param deadLetterTopic   where bad records go (contract default {@value #DEFAULT_DLQ_TOPIC})
 * @param inputPartitions   the input topic's actual partition count, for the {@code wrong_partition} check
 * @param deletedRetention  how long deletion markers are kept (contract default 7 days)
 * @param purgeInterval     how often (wall clock) expired deletion markers are purged
 * @param outcomes          told about every record's outcome (counters, freshness, waiters)
 * @param deadLetterMaxBytes the producer's {@code max.request.size}: dead letters are cut to fit it (default
 *                          {@value #DEFAULT_DEAD_LETTER_MAX_BYTES}, Kafka's default)
 * @param decoder           decodes record values; shared by every task (default: without a schema registry)
 */
public record TopologySettings(String inputTopic, String deadLetterTopic, int inputPartitions,
                               Duration deletedRetention, Duration purgeInterval, EventOutcomeListener outcomes,
                               int deadLetterMaxBytes, EventDecoder decoder) {

    /** Decodes the single-object and JSON encodings; thread-safe, so one serves every settings value. */
    public static final EventDecoder DEFAULT_DECODER = ProductEventCodec.create();

    public static final int DEFAULT_DEAD_LETTER_MAX_BYTES = 1_048_576;
    /** Room kept for the {@code dlq.*} headers themselves: a request size below it cannot carry a dead letter. */
    static final int MIN_DEAD_LETTER_MAX_BYTES = 8 * 1024;

    public static final String DEFAULT_INPUT_TOPIC = "catalog.product-events";
    public static final String DEFAULT_DLQ_TOPIC = "catalog.product-events.dlq";
    public static final Duration DEFAULT_DELETED_RETENTION = Duration.ofDays(7);

    public TopologySettings {
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
        Objects.requireNonNull(outcomes, "outcomes");
        Objects.requireNonNull(decoder, "decoder");
        if (inputPartitions < 1) {
            throw new IllegalArgumentException("inputPartitions must be >= 1, was " + inputPartitions);
        }
        if (deletedRetention.isNegative() || deletedRetention.isZero()) {
            throw new IllegalArgumentException("deletedRetention must be positive, was " + deletedRetention);
        }
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("purgeInterval must be positive, was " + purgeInterval);
        }
        if (deadLetterMaxBytes < MIN_DEAD_LETTER_MAX_BYTES) {
            throw new IllegalArgumentException("the producer's max.request.size must be at least "
                    + MIN_DEAD_LETTER_MAX_BYTES + " bytes to carry dead letters, was " + deadLetterMaxBytes);
        }
    }

    public TopologySettings(String inputTopic, String deadLetterTopic, int inputPartitions, Duration deletedRetention,
                            Duration purgeInterval, EventOutcomeListener outcomes, int deadLetterMaxBytes) {
        this(inputTopic, deadLetterTopic, inputPartitions, deletedRetention, purgeInterval, outcomes,
                deadLetterMaxBytes, DEFAULT_DECODER);
    }

    /** With Kafka's default request size for dead letters. */
    public TopologySettings(String inputTopic, String deadLetterTopic, int inputPartitions, Duration deletedRetention,
                            Duration purgeInterval, EventOutcomeListener outcomes) {
        this(inputTopic, deadLetterTopic, inputPartitions, deletedRetention, purgeInterval, outcomes,
                DEFAULT_DEAD_LETTER_MAX_BYTES);
    }

    /** Contract defaults for the given partition count. */
    public static TopologySettings defaults(int inputPartitions) {
        return new TopologySettings(DEFAULT_INPUT_TOPIC, DEFAULT_DLQ_TOPIC, inputPartitions,
                DEFAULT_DELETED_RETENTION, Duration.ofMinutes(1), EventOutcomeListener.NONE);
    }

    public TopologySettings withOutcomes(EventOutcomeListener listener) {
        return new TopologySettings(inputTopic, deadLetterTopic, inputPartitions, deletedRetention, purgeInterval,
                listener, deadLetterMaxBytes, decoder);
    }

    public TopologySettings withDeletedRetention(Duration retention, Duration purge) {
        return new TopologySettings(inputTopic, deadLetterTopic, inputPartitions, retention, purge, outcomes,
                deadLetterMaxBytes, decoder);
    }

    public TopologySettings withDeadLetterMaxBytes(int maxBytes) {
        return new TopologySettings(inputTopic, deadLetterTopic, inputPartitions, deletedRetention, purgeInterval,
                outcomes, maxBytes, decoder);
    }

    /** With another decoder (one that also reads the schema registry framing). */
    public TopologySettings withDecoder(EventDecoder eventDecoder) {
        return new TopologySettings(inputTopic, deadLetterTopic, inputPartitions, deletedRetention, purgeInterval,
                outcomes, deadLetterMaxBytes, eventDecoder);
    }
}
