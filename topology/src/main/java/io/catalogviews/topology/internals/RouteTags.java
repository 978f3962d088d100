package io.catalogviews.topology.internals;

import java.util.Arrays;

/**
 * The product processor has two outputs, dead letters and category changes, and the DSL lets a processor
 * forward to all its children only. So the first key byte says where a record goes; the router strips it.
 */
public final class RouteTags {

    /** Dead letter with the original key that follows. */
    public static final byte DEAD_LETTER = 0x00;
    /** Dead letter whose original key was null. */
    public static final byte DEAD_LETTER_NULL_KEY = 0x01;
    /** Category change; the category's UTF-8 bytes follow. */
    public static final byte CATEGORY_CHANGE = 0x02;

    private RouteTags() {
    }

    public static byte[] tag(byte tag, byte[] key) {
        if (key == null) {
            return new byte[]{DEAD_LETTER_NULL_KEY};
        }
        byte[] out = new byte[key.length + 1];
        out[0] = tag;
        System.arraycopy(key, 0, out, 1, key.length);
        return out;
    }

    public static boolean isDeadLetter(byte[] taggedKey) {
        return taggedKey[0] == DEAD_LETTER || taggedKey[0] == DEAD_LETTER_NULL_KEY;
    }

    public static byte[] untag(byte[] taggedKey) {
        return taggedKey[0] == DEAD_LETTER_NULL_KEY ? null : Arrays.copyOfRange(taggedKey, 1, taggedKey.length);
    }
}
