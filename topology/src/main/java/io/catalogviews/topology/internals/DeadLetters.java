package io.catalogviews.topology.internals;

import io.catalogviews.topology.DeadLetterReason;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds dead letters that can always be written: the original key, value and headers plus the contract's
 * {@code dlq.*} headers, cut down when the whole would not fit the producer's request size (CONTRACT.md section 4,
 * "Dead letters always fit"). A dead letter that cannot be written would fail the transaction, and the record
 * would be re-read and fail again, forever.
 */
public final class DeadLetters {

    public static final String REASON = "dlq.reason";
    public static final String DETAIL = "dlq.detail";
    public static final String TOPIC = "dlq.topic";
    public static final String PARTITION = "dlq.partition";
    public static final String OFFSET = "dlq.offset";
    public static final String TRUNCATED = "dlq.truncated";
    public static final String ORIGINAL_KEY_BYTES = "dlq.original-key-bytes";
    public static final String ORIGINAL_VALUE_BYTES = "dlq.original-value-bytes";
    /** Added when even the cut record would not fit with the original headers: they are left out, counted here. */
    public static final String DROPPED_HEADERS = "dlq.dropped-headers";

    /** Contract: {@code dlq.detail} is at most this many UTF-8 bytes. */
    public static final int MAX_DETAIL_BYTES = 1024;
    /** Contract: a cut key or value keeps this many of its first bytes. */
    public static final int CUT_BYTES = 1024;
    /**
     * Upper bound of what a record batch of one record adds to its key, value and headers (batch header 61 bytes,
     * record varints ≤ 31, each header's two length varints ≤ 10), rounded up.
     */
    private static final int BATCH_OVERHEAD = 128;
    private static final int PER_HEADER_OVERHEAD = 10;

    private DeadLetters() {
    }

    /** Where the record came from; {@code partition} -1 and {@code offset} -1 when unknown. */
    public record Source(String topic, int partition, long offset) {
        public static final Source UNKNOWN = new Source("", -1, -1L);
    }

    /** A dead letter ready to send. */
    public record DeadLetter(byte[] key, byte[] value, Headers headers) {
    }

    /**
     * @param maxBytes the producer's {@code max.request.size}: the dead letter, with the batch around it, stays
     *                 under it
     */
    public static DeadLetter of(byte[] key, byte[] value, Headers original, DeadLetterReason reason, String detail,
                                Source source, int maxBytes) {
        Header[] originalHeaders = original == null ? new Header[0] : original.toArray();
        RecordHeaders headers = contractHeaders(originalHeaders, reason, detail, source);
        if (size(key, value, headers) <= maxBytes) {
            return new DeadLetter(key, value, headers);
        }
        byte[] cutKey = cut(key);
        byte[] cutValue = cut(value);
        RecordHeaders cutHeaders = contractHeaders(originalHeaders, reason, detail, source);
        addTruncation(cutHeaders, key, value);
        if (size(cutKey, cutValue, cutHeaders) <= maxBytes) {
            return new DeadLetter(cutKey, cutValue, cutHeaders);
        }
        RecordHeaders bare = contractHeaders(new Header[0], reason, detail, source);
        addTruncation(bare, key, value);
        bare.add(DROPPED_HEADERS, utf8(Integer.toString(originalHeaders.length)));
        return new DeadLetter(cutKey, cutValue, bare);
    }

    /** {@code text} as UTF-8, cut to {@value #MAX_DETAIL_BYTES} bytes with '…' when longer. */
    public static byte[] detailBytes(String text) {
        byte[] all = utf8(text);
        if (all.length <= MAX_DETAIL_BYTES) {
            return all;
        }
        byte[] ellipsis = utf8("…");
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        ByteBuffer out = ByteBuffer.allocate(MAX_DETAIL_BYTES - ellipsis.length);
        encoder.encode(CharBuffer.wrap(text), out, true); // stops before a character that would not fit whole
        byte[] cut = Arrays.copyOf(out.array(), out.position() + ellipsis.length);
        System.arraycopy(ellipsis, 0, cut, out.position(), ellipsis.length);
        return cut;
    }

    private static RecordHeaders contractHeaders(Header[] original, DeadLetterReason reason, String detail,
                                                 Source source) {
        RecordHeaders headers = new RecordHeaders(original);
        headers.add(REASON, utf8(reason.wireName()));
        headers.add(DETAIL, detailBytes(detail));
        headers.add(TOPIC, utf8(source.topic()));
        headers.add(PARTITION, utf8(Integer.toString(source.partition())));
        headers.add(OFFSET, utf8(Long.toString(source.offset())));
        return headers;
    }

    private static void addTruncation(RecordHeaders headers, byte[] key, byte[] value) {
        headers.add(TRUNCATED, utf8("true"));
        headers.add(ORIGINAL_KEY_BYTES, utf8(Integer.toString(key == null ? 0 : key.length)));
        headers.add(ORIGINAL_VALUE_BYTES, utf8(Integer.toString(value == null ? 0 : value.length)));
    }

    private static byte[] cut(byte[] bytes) {
        return bytes == null || bytes.length <= CUT_BYTES ? bytes : Arrays.copyOf(bytes, CUT_BYTES);
    }

    /** An upper bound of the record's size on the wire, as the producer checks it against its request size. */
    static long size(byte[] key, byte[] value, Headers headers) {
        long size = BATCH_OVERHEAD + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Header h : headers) {
            size += PER_HEADER_OVERHEAD + utf8(h.key()).length + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
