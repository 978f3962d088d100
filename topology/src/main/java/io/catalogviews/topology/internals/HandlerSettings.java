package io.catalogviews.topology.internals;

import io.catalogviews.topology.ErrorHandling;
import io.catalogviews.topology.EventOutcomeListener;

import java.util.Map;

/** What the exception handlers read from the Streams properties (see {@link ErrorHandling}). */
record HandlerSettings(String deadLetterTopic, int deadLetterMaxBytes, EventOutcomeListener outcomes) {

    static HandlerSettings from(Map<String, ?> configs) {
        Object topic = configs.get(ErrorHandling.DEAD_LETTER_TOPIC_CONFIG);
        Object maxBytes = configs.get(ErrorHandling.DEAD_LETTER_MAX_BYTES_CONFIG);
        Object outcomes = configs.get(ErrorHandling.OUTCOMES_CONFIG);
        if (topic == null || maxBytes == null) {
            throw new IllegalStateException("the exception handlers need " + ErrorHandling.DEAD_LETTER_TOPIC_CONFIG
                    + " and " + ErrorHandling.DEAD_LETTER_MAX_BYTES_CONFIG + " (see ErrorHandling.properties)");
        }
        return new HandlerSettings(topic.toString(), Integer.parseInt(maxBytes.toString()),
                outcomes instanceof EventOutcomeListener listener ? listener : EventOutcomeListener.NONE);
    }
}
