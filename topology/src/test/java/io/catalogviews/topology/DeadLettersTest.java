package io.catalogviews.topology;

import static io.catalogviews.topology.DeadLetterChecks.assertSingleDeadLetter;
import static io.catalogviews.topology.Events.deleted;
import static io.catalogviews.topology.Events.priceChanged;
import static io.catalogviews.topology.Events.product;
import static io.catalogviews.topology.Events.stockChanged;
import static io.catalogviews.topology.Events.upsert;
import static io.catalogviews.topology.TopologyFixture.encode;
import static io.catalogviews.topology.TopologyFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.Product;
import io.catalogviews.views.product.ProductJson;
import io.catalogviews.views.product.ProductRow;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rules 1, 2, 6 and 7 of CONTRACT.md section 1 (rule 3: {@link WrongPartitionTest}, rule 5: {@link
 * InvalidEventsTest}), and what a dead letter carries.
 */
class DeadLettersTest {

    private static final int MAX_RENDERED_BYTES = 64 * 1024;

    private TopologyFixture topology;

    @BeforeEach
    void startTopology() {
        topology = TopologyFixture.start();
    }

    @AfterEach
    void closeTopology() {
        topology.close();
    }

    // ---- what a dead letter carries

    @Test
    void shouldKeepTheOriginalKeyValueAndHeadersWhenDeadLettering() {
        byte[] key = utf8("p-1");
        byte[] value = {1, 2, 3, (byte) 0xFF};
        Header trace = new RecordHeader("trace-id", utf8("abc-123"));
        Header binary = new RecordHeader("binary", new byte[] {0, (byte) 0xC3, 1});
        Header repeated = new RecordHeader("trace-id", utf8("second"));

        long offset = topology.pipe(key, value, trace, binary, repeated);

        List<TestRecord<byte[], byte[]>> letters = topology.deadLetters();
        assertSingleDeadLetter(letters, "undecodable", offset);
        TestRecord<byte[], byte[]> letter = letters.get(0);
        assertThat(letter.key()).isEqualTo(key);
        assertThat(letter.value()).isEqualTo(value);
        Header[] headers = letter.headers().toArray();
        assertThat(Arrays.copyOf(headers, 3)).as("original headers first, in order").containsExactly(
                trace, binary, repeated);
        assertThat(Arrays.stream(headers).skip(3).map(Header::key))
                .containsExactlyInAnyOrder("dlq.reason", "dlq.detail", "dlq.topic", "dlq.partition",
                        "dlq.offset");
    }

    @Test
    void shouldNameTheOffsetOfTheBadRecordWhenGoodRecordsCameBefore() {
        topology.send(upsert("p-1", 1));
        topology.send(upsert("p-2", 1));
        topology.send(stockChanged("p-1", 2, 5));

        long offset = topology.pipe(utf8("p-1"), new byte[0]);

        assertThat(offset).isEqualTo(3L);
        assertSingleDeadLetter(topology.deadLetters(), "undecodable", 3L);
    }

    @Test
    void shouldWriteOneDeadLetterPerBadRecordWhenSeveralArrive() {
        long first = topology.pipe(utf8("p-1"), new byte[0]);
        topology.send(upsert("p-1", 1));
        long second = topology.send(priceChanged("p-2", 1, 1L, "EUR"));

        List<TestRecord<byte[], byte[]>> letters = topology.deadLetters();

        assertThat(letters).hasSize(2);
        DeadLetterChecks.assertDeadLetter(letters.get(0), "undecodable", first);
        DeadLetterChecks.assertDeadLetter(letters.get(1), "unknown_product", second);
    }

    // ---- undecodable

    @Test
    void shouldDeadLetterAZeroByteValueWhenItArrivesInsteadOfATombstone() {
        topology.send(upsert("p-1", 1));

        long offset = topology.pipe(utf8("p-1"), new byte[0]);

        assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
        assertThat(topology.row("p-1").deleted()).as("a zero-byte value deletes nothing").isFalse();
    }

    @Test
    void shouldDeadLetterAndNameTheFramingWhenTheValueHasConfluentFraming() {
        byte[] singleObject = encode(upsert("p-1", 1));
        byte[] avroBody = Arrays.copyOfRange(singleObject, 10, singleObject.length);
        byte[] confluent = ByteBuffer.allocate(5 + avroBody.length).put((byte) 0).putInt(42).put(avroBody).array();

        long offset = topology.pipe(utf8("p-1"), confluent);

        String detail = assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
        assertThat(detail).containsIgnoringCase("confluent");
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterGarbageBytesWhenTheyAreNoEncoding() {
        long offset = topology.pipe(utf8("p-1"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});

        assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterASingleObjectValueWhenItsFingerprintIsUnknown() {
        byte[] value = encode(upsert("p-1", 1));
        value[2] ^= (byte) 0xFF;

        long offset = topology.pipe(utf8("p-1"), value);

        assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
    }

    @Test
    void shouldDeadLetterASingleObjectValueWhenItsBodyIsCutShort() {
        byte[] value = encode(upsert("p-1", 1));

        long offset = topology.pipe(utf8("p-1"), Arrays.copyOf(value, value.length / 2));

        assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterJsonTextWhenItIsNotAProductEvent() {
        long offset = topology.pipe(utf8("p-1"), utf8("{\"productId\":\"p-1\",\"hello\":\"world\"}"));

        assertSingleDeadLetter(topology.deadLetters(), "undecodable", offset);
    }

    // ---- key mismatch

    @Test
    void shouldDeadLetterAnUpsertWhenTheKeyDiffersFromTheProductId() {
        long offset = topology.send("p-other", upsert("p-1", 1));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
        assertThat(topology.row("p-1")).isNull();
        assertThat(topology.row("p-other")).isNull();
    }

    @Test
    void shouldDeadLetterAnUpsertWhenTheProductIdDiffersFromKeyAndProductId() {
        long offset = topology.send(Events.upsertWithProductOf("p-1", 1, product("p-2")));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
        assertThat(topology.row("p-1")).isNull();
        assertThat(topology.row("p-2")).isNull();
    }

    @Test
    void shouldDeadLetterAPatchWhenTheKeyDiffersFromTheProductId() {
        topology.send(upsert("p-1", 1));
        topology.send(upsert("p-2", 1));

        long offset = topology.send("p-2", priceChanged("p-1", 2, 1L, "EUR"));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
        assertThat(topology.json("p-1").get("version").longValue()).isEqualTo(1L);
        assertThat(topology.json("p-2").get("version").longValue()).isEqualTo(1L);
    }

    @Test
    void shouldDeadLetterAnEventWhenTheRecordHasNoKey() {
        long offset = topology.pipe(null, encode(upsert("p-1", 1)));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterAnEventWhenTheKeyIsNotUtf8() {
        long offset = topology.pipe(new byte[] {'p', '-', (byte) 0xFF}, encode(upsert("p-1", 1)));

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
    }

    @Test
    void shouldDeadLetterATombstoneWhenTheRecordHasNoKey() {
        long offset = topology.pipe(null, null);

        assertSingleDeadLetter(topology.deadLetters(), "key_mismatch", offset);
    }

    // ---- unknown product

    @Test
    void shouldDeadLetterAPriceChangeWhenTheProductWasNeverHeld() {
        long offset = topology.send(priceChanged("p-1", 1, 100L, "EUR"));

        assertSingleDeadLetter(topology.deadLetters(), "unknown_product", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterAStockChangeWhenTheProductWasNeverHeld() {
        long offset = topology.send(stockChanged("p-1", 1, 3));

        assertSingleDeadLetter(topology.deadLetters(), "unknown_product", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterAPriceChangeWhenTheProductWasDeleted() {
        topology.send(upsert("p-1", 1));
        topology.send(deleted("p-1", 2));

        long offset = topology.send(priceChanged("p-1", 3, 100L, "EUR"));

        assertSingleDeadLetter(topology.deadLetters(), "unknown_product", offset);
        assertThat(topology.row("p-1").deleted()).isTrue();
        assertThat(topology.row("p-1").version()).isEqualTo(2L);
    }

    @Test
    void shouldDeadLetterAStockChangeWhenTheProductWasRemovedByATombstone() {
        topology.send(upsert("p-1", 1));
        topology.tombstone("p-1");

        long offset = topology.send(stockChanged("p-1", 2, 3));

        assertSingleDeadLetter(topology.deadLetters(), "unknown_product", offset);
        assertThat(topology.row("p-1").deleted()).isTrue();
    }

    // ---- too large

    @Test
    void shouldDeadLetterAnUpsertWhenItsRenderedJsonIsOver64KiB() {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 0; i < 64; i++) {
            attributes.put("attribute-" + i, "x".repeat(1024));
        }

        long offset = topology.send(upsert("p-1", 1, p -> p.setAttributes(attributes)));

        String detail = assertSingleDeadLetter(topology.deadLetters(), "too_large", offset);
        assertThat(detail).contains("65536");
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldCountBytesNotCharactersWhenTheTextIsNotAscii() {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 0; i < 22; i++) {
            attributes.put("attribute-" + i, "€".repeat(1024));
        }

        long offset = topology.send(upsert("p-1", 1, p -> p.setAttributes(attributes)));

        assertSingleDeadLetter(topology.deadLetters(), "too_large", offset);
    }

    @Test
    void shouldApplyAnUpsertWhenItsRenderedJsonIsExactly64KiB() {
        topology.send(upsert(productRenderedAs("p-1", 9, MAX_RENDERED_BYTES), 9));

        assertThat(topology.deadLetters()).isEmpty();
        assertThat(topology.row("p-1").json()).hasSize(MAX_RENDERED_BYTES);
    }

    @Test
    void shouldDeadLetterAnUpsertWhenItsRenderedJsonIsOneByteOver64KiB() {
        long offset = topology.send(upsert(productRenderedAs("p-1", 9, MAX_RENDERED_BYTES + 1), 9));

        assertSingleDeadLetter(topology.deadLetters(), "too_large", offset);
        assertThat(topology.row("p-1")).isNull();
    }

    @Test
    void shouldDeadLetterAPatchAndKeepTheHeldRowWhenThePatchedJsonWouldBeOver64KiB() {
        topology.send(upsert(productRenderedAs("p-1", 9, MAX_RENDERED_BYTES), 9));
        ProductRow held = topology.row("p-1");

        long offset = topology.send(stockChanged("p-1", 10, 3));

        assertSingleDeadLetter(topology.deadLetters(), "too_large", offset);
        assertThat(topology.row("p-1")).isEqualTo(held);
    }

    /**
     * A valid product (64 attributes at most, values of 1024 characters at most) whose JSON rendered at
     * {@code version} is exactly {@code bytes} long.
     */
    private static Product productRenderedAs(String id, long version, int bytes) {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 0; i < 63; i++) {
            attributes.put(String.format("a%02d", i), "x".repeat(1024));
        }
        attributes.put("pad", "");
        int padding = bytes - ProductJson.render(product(id, p -> p.setAttributes(attributes)), version).length;
        assertThat(padding).as("padding needed").isBetween(0, 1024);
        attributes.put("pad", "x".repeat(padding));
        Product product = product(id, p -> p.setAttributes(attributes));
        assertThat(ProductJson.render(product, version)).hasSize(bytes);
        return product;
    }
}
