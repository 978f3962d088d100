package io.catalogviews.topology.internals;

import io.catalogviews.topology.DeadLetterReason;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Kafka Streams' processing exception handler for this topology: a record whose processing throws is a defect's
 * victim, not a bad record under the contract's rules, yet it must not stop the partition. It is dead-lettered
 * with reason {@code processing_error} (detail: exception class and message), counted, logged once with the stack,
 * and the stream goes on. The processors decide a record's whole outcome before their first write, so a record
 * that throws has written nothing.
 *
 * <p>Kafka's own exceptions (a store that closed, a fenced producer, a task that migrated) are not the record's
 * fault: they fail the thread as before, which aborts the transaction and re-reads the record after a restart.
 */
public final class RecordFailureHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecordFailureHandler.class);

    private HandlerSettings settings;

    @Override
    public void configure(Map<String, ?> configs) {
        settings = HandlerSettings.from(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (exception instanceof KafkaException) {
            // Not the record's fault (a store that closed, a fenced producer, a schema registry out of reach): the
            // thread is replaced and re-reads the record from the last commit.
            LOG.error("Processing of {}-{}@{} hit {} (node {}); failing the stream thread, which re-reads it from the "
                            + "last commit", context.topic(), context.partition(), context.offset(),
                    exception.getClass().getSimpleName(), context.processorNodeId(), exception);
            return Response.fail();
        }
        LOG.error("Processing of {}-{}@{} threw (node {}); dead-lettering it as processing_error and going on",
                context.topic(), context.partition(), context.offset(), context.processorNodeId(), exception);
        settings.outcomes().deadLettered(DeadLetterReason.PROCESSING_ERROR);
        return Response.resume(List.of(deadLetter(settings, context, DeadLetterReason.PROCESSING_ERROR,
                describe(exception))));
    }

    /** "ExceptionClass: message", no stack: what an operator reads in {@code dlq.detail}. */
    static String describe(Throwable exception) {
        String message = exception.getMessage();
        return exception.getClass().getName() + (message == null ? "" : ": " + message);
    }

    /** The dead letter of the record being processed, from its original bytes. */
    static ProducerRecord<byte[], byte[]> deadLetter(HandlerSettings settings, ErrorHandlerContext context,
                                                     DeadLetterReason reason, String detail) {
        DeadLetters.DeadLetter letter = DeadLetters.of(context.sourceRawKey(), context.sourceRawValue(),
                context.headers(), reason, detail,
                new DeadLetters.Source(context.topic() == null ? "" : context.topic(), context.partition(),
                        context.offset()),
                settings.deadLetterMaxBytes());
        return new ProducerRecord<>(settings.deadLetterTopic(), null, context.timestamp(), letter.key(),
                letter.value(), letter.headers());
    }
}
