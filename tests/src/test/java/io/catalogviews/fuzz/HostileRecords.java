package io.catalogviews.fuzz;

import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.events.codec.ProductEvents;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * A seeded generator of input records that no shop should send and any producer can: keys that are null, empty,
 * control bytes, the view stores' namespace bytes (0x02, 0x03 and what follows), invalid UTF-8, text outside the
 * id grammar, over-long and huge; values that are tombstones, empty, garbage, foreign framings, near the size
 * limit, and valid events whose key or productId is one of the above.
 *
 * <p>Each record carries the outcome the contract gives it, worked out here from CONTRACT.md alone (sections 1
 * and 4, with the test's own copy of the grammar): a dead letter and its reason, or a tombstone that is applied
 * and changes nothing (a valid id that no ordinary event uses). None of them may change what the views hold.
 */
public final class HostileRecords {

    /** The contract's id grammar, the test's own copy. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:~-]{1,128}");
    private static final ProductEventCodec CODEC = ProductEventCodec.create();
    private static final Instant AT = Instant.parse("2026-12-01T00:00:00Z");

    /** One hostile record and what must become of it. */
    public record Hostile(byte[] key, byte[] value, String expectedReason, String description) {
        /** True when the record must be dead-lettered (otherwise: an applied tombstone that changes nothing). */
        public boolean deadLettered() {
            return expectedReason != null;
        }

        public int size() {
            return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        }

        @Override
        public String toString() {
            return description + " → " + (expectedReason == null ? "applied, no change" : expectedReason);
        }
    }

    private final SplittableRandom random;
    /** Keys and values up to this many bytes; the huge cases use most of it. */
    private final int maxRecordBytes;
    private int serial;

    /**
     * @param maxRecordBytes the largest record the transport takes (key + value): the broker's limit less some
     *                       room, or a driver's choice
     */
    public HostileRecords(long seed, int maxRecordBytes) {
        this.random = new SplittableRandom(seed);
        this.maxRecordBytes = maxRecordBytes;
    }

    public List<Hostile> next(int count) {
        List<Hostile> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(next());
        }
        return out;
    }

    public Hostile next() {
        serial++;
        byte[] key = hostileKey();
        int kind = random.nextInt(10);
        return switch (kind) {
            case 0, 1 -> outcome(key, null, "tombstone");
            case 2 -> outcome(key, new byte[0], "empty value");
            case 3 -> outcome(key, garbage(1 + random.nextInt(200)), "garbage value");
            case 4 -> outcome(key, foreignFraming(), "foreign framing");
            case 5 -> outcome(key, random.nextInt(20) == 0 ? garbage(nearLimit(key)) : garbage(2_000), "big garbage");
            default -> eventRecord(key);
        };
    }

    private int nearLimit(byte[] key) {
        return Math.max(1, maxRecordBytes - (key == null ? 0 : key.length) - 64);
    }

    private Hostile eventRecord(byte[] key) {
        String keyText = strictUtf8(key);
        String productId = switch (random.nextInt(4)) {
            case 0 -> keyText == null ? "p-" + serial : keyText;                 // the key itself, when it is text
            case 1 -> "hostile-other-" + serial;                                   // a valid id, not the key
            case 2 -> keyText == null ? "\u0003\u0000" : keyText + "x";           // another bad id
            default -> keyText != null && keyText.length() > 1000 ? keyText + "-2" : "p-" + serial;
        };
        if (productId.equals(keyText) && ID.matcher(keyText).matches()) {
            productId = "hostile-other-" + serial; // a valid event for a valid id is not hostile: make it mismatch
        }
        ProductEvent event = random.nextBoolean()
                ? ProductEvents.upsert(productId, 1 + random.nextInt(5), AT,
                        ProductEvents.product(productId, "acme", "phones", 1_000, 1, AT))
                : ProductEvents.priceChanged(productId, 1 + random.nextInt(5), AT, 500, "EUR");
        byte[] value = random.nextBoolean() ? CODEC.encodeSingleObject(event)
                : CODEC.encodeJson(event).getBytes(StandardCharsets.UTF_8);
        return outcome(key, value, "event for '" + abbreviate(productId) + "'", event);
    }

    private Hostile outcome(byte[] key, byte[] value, String valueDescription) {
        return outcome(key, value, valueDescription, null);
    }

    /** The contract's outcome, in its order of precedence (one partition, so never {@code wrong_partition}). */
    private Hostile outcome(byte[] key, byte[] value, String valueDescription, ProductEvent event) {
        String keyText = strictUtf8(key);
        String description = "key " + describeKey(key) + ", " + valueDescription;
        String reason;
        if (value == null) {
            reason = keyText == null ? "key_mismatch" : !ID.matcher(keyText).matches() ? "invalid" : null;
        } else if (event == null) {
            reason = "undecodable";
        } else if (keyText == null || !keyText.equals(event.getProductId())) {
            reason = "key_mismatch";
        } else if (!ID.matcher(keyText).matches()) {
            reason = "invalid";
        } else {
            throw new IllegalStateException("generated a valid event for a valid id: " + description);
        }
        return new Hostile(key, value, reason, description);
    }

    private byte[] hostileKey() {
        return switch (random.nextInt(12)) {
            case 0 -> null;
            case 1 -> new byte[0];
            case 2 -> new byte[] {(byte) random.nextInt(0x20)};                       // one control byte
            case 3 -> new byte[] {0x03, 0x00};                                         // a facet counter's key
            case 4 -> concat(new byte[] {(byte) (2 + random.nextInt(2))}, garbage(random.nextInt(40)));
            case 5 -> concat(new byte[] {(byte) random.nextInt(0x20)}, ascii("p-1"));  // control byte, then an id
            case 6 -> invalidUtf8();
            case 7 -> ascii("p 1é/".substring(random.nextInt(4)) + serial);            // text outside the grammar
            case 8 -> ascii("x".repeat(129 + random.nextInt(400)));                    // over-long
            case 9 -> random.nextInt(30) == 0 ? ascii("k".repeat(Math.min(400_000, maxRecordBytes / 4))) : ascii("y".repeat(2_000));
            case 10 -> "\u00e9t\u00e9-\ud83d\ude00".getBytes(StandardCharsets.UTF_8);   // valid UTF-8, not an id
            default -> ascii("hostile-" + serial);                                      // a valid id nobody else uses
        };
    }

    private byte[] invalidUtf8() {
        byte[][] cases = {
                {(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xC0, (byte) 0xAF}, {0x70, (byte) 0x80, 0x31}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
        return cases[random.nextInt(cases.length)].clone();
    }

    private byte[] foreignFraming() {
        if (random.nextBoolean()) {
            // Confluent Schema Registry framing: 0x00, a 4-byte schema id, then a body.
            return concat(new byte[] {0, 0, 0, 0, (byte) random.nextInt(1, 100)}, garbage(20));
        }
        // Single-object framing with a fingerprint no schema version has.
        ByteBuffer b = ByteBuffer.allocate(10 + 20).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0xC3).put((byte) 0x01).putLong(random.nextLong()).put(garbage(20));
        return b.array();
    }

    /** Random bytes that are neither JSON nor a known framing (first byte 0xFE). */
    private byte[] garbage(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        if (length > 0) {
            b[0] = (byte) 0xFE;
        }
        return b;
    }

    static String strictUtf8(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String describeKey(byte[] key) {
        if (key == null) {
            return "null";
        }
        if (key.length > 24) {
            return key.length + " bytes starting " + hex(Arrays.copyOf(key, 8));
        }
        return hex(key);
    }

    private static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append(String.format("%02x", x & 0xFF));
        }
        return b.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "… (" + s.length() + " chars)" : s;
    }

    /** The reasons a generator run produced, for a report line. */
    public static Map<String, Long> countByReason(List<Hostile> records) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (Hostile h : records) {
            counts.merge(h.expectedReason() == null ? "(applied tombstone)" : h.expectedReason(), 1L, Long::sum);
        }
        return counts;
    }
}
