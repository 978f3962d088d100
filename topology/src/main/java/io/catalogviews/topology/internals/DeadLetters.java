package io.catalogviews.topology.internals;

import io.catalogviews.topology.DeadLetterReason;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.nio.charset.StandardCharsets;

/** Builds the headers of a dead letter: the original headers plus the contract's {@code dlq.*} headers. */
final class DeadLetters {

    static final String REASON = "dlq.reason";
    static final String DETAIL = "dlq.detail";
    static final String TOPIC = "dlq.topic";
    static final String PARTITION = "dlq.partition";
    static final String OFFSET = "dlq.offset";

    private DeadLetters() {
    }

    static Headers headers(Headers original, DeadLetterReason reason, String detail, RecordMetadata source) {
        RecordHeaders headers = new RecordHeaders(original.toArray());
        headers.add(REASON, utf8(reason.wireName()));
        headers.add(DETAIL, utf8(detail));
        headers.add(TOPIC, utf8(source == null ? "" : source.topic()));
        headers.add(PARTITION, utf8(source == null ? "-1" : Integer.toString(source.partition())));
        headers.add(OFFSET, utf8(source == null ? "-1" : Long.toString(source.offset())));
        return headers;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
