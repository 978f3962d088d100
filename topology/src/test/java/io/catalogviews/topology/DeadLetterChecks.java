package io.catalogviews.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;

/** Assertions on dead letters: the contract's dlq.* headers, present once each, as UTF-8 text. */
final class DeadLetterChecks {

    private DeadLetterChecks() {
    }

    /** Checks the dead letter of the record piped at {@code offset} and answers its {@code dlq.detail}. */
    static String assertDeadLetter(TestRecord<byte[], byte[]> letter, String reason, long offset) {
        assertThat(header(letter, "dlq.reason")).as("dlq.reason").isEqualTo(reason);
        assertThat(header(letter, "dlq.topic")).as("dlq.topic").isEqualTo(TopologyFixture.INPUT);
        assertThat(header(letter, "dlq.partition")).as("dlq.partition").isEqualTo("0");
        assertThat(header(letter, "dlq.offset")).as("dlq.offset").isEqualTo(Long.toString(offset));
        String detail = header(letter, "dlq.detail");
        assertThat(detail).as("dlq.detail").isNotBlank().hasSizeGreaterThan(10);
        return detail;
    }

    /** The one dead letter written for the record piped at {@code offset}; answers its {@code dlq.detail}. */
    static String assertSingleDeadLetter(List<TestRecord<byte[], byte[]>> letters, String reason, long offset) {
        assertThat(letters).as("dead letters").hasSize(1);
        return assertDeadLetter(letters.get(0), reason, offset);
    }

    /** The value of the only header named {@code key}, as UTF-8 text. */
    static String header(TestRecord<byte[], byte[]> letter, String key) {
        Header[] headers = letter.headers().toArray();
        List<Header> named = java.util.Arrays.stream(headers).filter(h -> h.key().equals(key)).toList();
        assertThat(named).as("headers named %s", key).hasSize(1);
        return new String(named.get(0).value(), StandardCharsets.UTF_8);
    }
}
