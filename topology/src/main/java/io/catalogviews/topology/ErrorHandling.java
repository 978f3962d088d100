package io.catalogviews.topology;

import io.catalogviews.topology.internals.DeadLetterProductionHandler;
import io.catalogviews.topology.internals.RecordFailureHandler;
import org.apache.kafka.streams.StreamsConfig;

import java.util.Map;

/**
 * The Kafka Streams properties that make a record whose processing throws a dead letter instead of a crash loop
 * (CONTRACT.md section 4, "Processing errors"): Kafka Streams' own processing and production exception handlers,
 * configured with the dead-letter topic, the request size and the outcome listener. The service and the topology
 * tests use the same properties.
 */
public final class ErrorHandling {

    /** Config key of the dead-letter topic, read by the handlers. */
    public static final String DEAD_LETTER_TOPIC_CONFIG = "catalog.views.dead.letter.topic";
    /** Config key of the producer request size the dead letters must fit. */
    public static final String DEAD_LETTER_MAX_BYTES_CONFIG = "catalog.views.dead.letter.max.bytes";
    /** Config key of the {@link EventOutcomeListener} (an object, passed through the Streams properties). */
    public static final String OUTCOMES_CONFIG = "catalog.views.outcomes";

    private ErrorHandling() {
    }

    public static Map<String, Object> properties(TopologySettings settings) {
        return Map.of(
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RecordFailureHandler.class.getName(),
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class.getName(),
                DEAD_LETTER_TOPIC_CONFIG, settings.deadLetterTopic(),
                DEAD_LETTER_MAX_BYTES_CONFIG, Integer.toString(settings.deadLetterMaxBytes()),
                OUTCOMES_CONFIG, settings.outcomes());
    }
}
