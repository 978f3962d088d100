package io.catalogviews.topology.internals;

import io.catalogviews.topology.DeadLetterReason;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Kafka Streams' production exception handler for this topology. A record the broker or the producer refuses as
 * too large is answered with a dead letter cut down to fit, instead of failing the task over and over.
 *
 * <p>This is the last line, not the mechanism: dead letters are sized to fit before they are sent
 * ({@link DeadLetters}), because under exactly-once a refused send can leave the transaction to abort, and then
 * only a record that fits the first time ends the loop. Retriable errors are retried; anything else fails.
 */
public final class DeadLetterProductionHandler implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProductionHandler.class);

    private HandlerSettings settings;

    @Override
    public void configure(Map<String, ?> configs) {
        settings = HandlerSettings.from(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        if (!(exception instanceof RecordTooLargeException || exception instanceof RecordBatchTooLargeException)) {
            return Response.fail();
        }
        LOG.error("Topic {} refused a record of {}-{}@{} as too large; writing a cut-down dead letter instead",
                record.topic(), context.topic(), context.partition(), context.offset(), exception);
        if (settings.deadLetterTopic().equals(record.topic())) {
            return Response.resume(List.of(cutDown(record)));
        }
        settings.outcomes().deadLettered(DeadLetterReason.PROCESSING_ERROR);
        return Response.resume(List.of(RecordFailureHandler.deadLetter(settings, context,
                DeadLetterReason.PROCESSING_ERROR, "topic " + record.topic() + " refused its output: "
                        + RecordFailureHandler.describe(exception))));
    }

    /** The refused dead letter with its {@code dlq.*} headers only and its key and value cut. */
    private static ProducerRecord<byte[], byte[]> cutDown(ProducerRecord<byte[], byte[]> refused) {
        RecordHeaders headers = new RecordHeaders();
        for (Header h : refused.headers()) {
            if (h.key().startsWith("dlq.") && !h.key().equals(DeadLetters.TRUNCATED)
                    && !h.key().startsWith("dlq.original-")) {
                headers.add(h);
            }
        }
        headers.add(DeadLetters.TRUNCATED, "true".getBytes(StandardCharsets.UTF_8));
        headers.add(DeadLetters.ORIGINAL_KEY_BYTES, length(refused.key()));
        headers.add(DeadLetters.ORIGINAL_VALUE_BYTES, length(refused.value()));
        return new ProducerRecord<>(refused.topic(), refused.partition(), refused.timestamp(), cut(refused.key()),
                cut(refused.value()), headers);
    }

    private static byte[] length(byte[] bytes) {
        return Integer.toString(bytes == null ? 0 : bytes.length).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] cut(byte[] bytes) {
        return bytes == null || bytes.length <= DeadLetters.CUT_BYTES ? bytes
                : Arrays.copyOf(bytes, DeadLetters.CUT_BYTES);
    }
}
