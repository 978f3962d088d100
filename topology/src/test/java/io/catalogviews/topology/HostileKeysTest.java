package io.catalogviews.topology;

import static io.catalogviews.topology.DeadLetterChecks.assertSingleDeadLetter;
import static io.catalogviews.topology.DeadLetterChecks.header;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.TopologyFixture.encode;
import static io.catalogviews.topology.TopologyFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.ProductEvent;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CONTRACT.md section 4: the key is checked before anything is read or written — tombstones included — dead
 * letters always fit, and a record whose processing throws is dead-lettered while the stream goes on.
 */
class HostileKeysTest {

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
        topology.send(upsert("p-1", 1));
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    static Stream<Arguments> tombstoneKeys() {
        return Stream.of(
                Arguments.of(Named.of("03 00, a facet counter's key", new byte[] {0x03, 0x00}), "invalid"),
                Arguments.of(Named.of("02 and an index key", new byte[] {0x02, 0x01, 'p', '-', '1'}), "invalid"),
                Arguments.of(Named.of("a control byte", new byte[] {0x1F}), "invalid"),
                Arguments.of(Named.of("empty", new byte[0]), "invalid"),
                Arguments.of(Named.of("over-long", utf8("p".repeat(129))), "invalid"),
                Arguments.of(Named.of("text outside the grammar", utf8("p 1")), "invalid"),
                Arguments.of(Named.of("invalid UTF-8", new byte[] {(byte) 0xC3, 0x28}), "key_mismatch"),
                Arguments.of(Named.of("null", null), "key_mismatch"));
    }

    @ParameterizedTest(name = "tombstone keyed {0}")
    @MethodSource("tombstoneKeys")
    void shouldDeadLetterAndGoOnWhenATombstoneHasABadKey(byte[] key, String reason) {
        long offset = topology.pipe(key, null);
        topology.send(upsert("p-2", 1));

        assertSingleDeadLetter(topology.deadLetters(), reason, offset);
        assertThat(topology.row("p-1")).as("the held product").isNotNull();
        assertThat(topology.row("p-2")).as("the next event is applied").isNotNull();
    }

    @Test
    void shouldDeadLetterAsInvalidBeforeTheStaleCheckWhenAnEventsIdIsOutsideTheGrammar() {
        ProductEvent event = upsert("p 1", 1);
        long offset = topology.pipe(utf8("p 1"), encode(event));

        String detail = assertSingleDeadLetter(topology.deadLetters(), "invalid", offset);
        assertThat(detail).contains("productId must match");
    }

    @Test
    void shouldCutKeyAndValueAndSaySoWhenADeadLetterWouldNotFitTheRequestSize() {
        try (TopologyFixture small = TopologyFixture.withDeadLetterMaxBytes(16 * 1024)) {
            byte[] key = utf8("k".repeat(12_000));
            ProductEvent event = upsert("i".repeat(12_000), 1);
            long offset = small.pipe(key, encode(event));

            List<TestRecord<byte[], byte[]>> letters = small.deadLetters();
            String detail = assertSingleDeadLetter(letters, "key_mismatch", offset);
            TestRecord<byte[], byte[]> letter = letters.get(0);
            assertThat(detail.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(1024);
            assertThat(detail).endsWith("…");
            assertThat(header(letter, "dlq.truncated")).isEqualTo("true");
            assertThat(header(letter, "dlq.original-key-bytes")).isEqualTo("12000");
            assertThat(header(letter, "dlq.original-value-bytes")).isEqualTo(Integer.toString(encode(event).length));
            assertThat(letter.key()).isEqualTo(Arrays.copyOf(key, 1024));
            assertThat(letter.value()).isEqualTo(Arrays.copyOf(encode(event), 1024));
        }
    }

    @Test
    void shouldKeepTheWholeRecordWhenItFits() {
        byte[] key = utf8("k".repeat(2_000));
        long offset = topology.pipe(key, encode(upsert("p-9", 1)));

        List<TestRecord<byte[], byte[]>> letters = topology.deadLetters();
        assertSingleDeadLetter(letters, "key_mismatch", offset);
        assertThat(letters.get(0).key()).isEqualTo(key);
        assertThat(letters.get(0).headers().lastHeader("dlq.truncated")).isNull();
    }
}
