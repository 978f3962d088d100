package io.catalogviews.events.codec;

import java.io.EOFException;

/**
 * Formatting shared by the {@code detail} sentences of undecodable values.
 *
 * <p>Details end up in a Kafka header ({@code dlq.detail}) and in logs, so they are kept on one line and bounded in
 * length whatever the offending input looks like.
 */
final class Details {
  private static final int MAX_CAUSE_CHARS = 400;

  private Details() {}

  /** {@code 0xC3}: the notation used for bytes in every detail. */
  static String hexByte(byte b) {
    return String.format("0x%02X", b & 0xFF);
  }

  /** {@code 0x0123456789ABCDEF}: a 64-bit schema fingerprint, all 16 digits so that it can be compared by eye. */
  static String hexFingerprint(long fingerprint) {
    return String.format("0x%016X", fingerprint);
  }

  /** The first {@code max} bytes of {@code value} as {@code 0x.. 0x..}, with an ellipsis when there are more. */
  static String firstBytes(byte[] value, int max) {
    StringBuilder out = new StringBuilder();
    int shown = Math.min(max, value.length);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        out.append(' ');
      }
      out.append(hexByte(value[i]));
    }
    if (value.length > shown) {
      out.append(" …");
    }
    return out.toString();
  }

  /**
   * The most specific explanation in {@code failure}'s cause chain, on one line.
   *
   * <p>The innermost cause is used because Avro and Jackson wrap the informative exception ("Attempted to read 10
   * bytes, but only 3 bytes are available") in generic ones ("Decoding datum failed").
   */
  static String cause(Throwable failure) {
    Throwable innermost = failure;
    while (innermost.getCause() != null && innermost.getCause() != innermost) {
      innermost = innermost.getCause();
    }
    String message = innermost.getMessage();
    if (message == null || message.isBlank()) {
      message = innermost instanceof EOFException
          ? "unexpected end of data (the value is truncated)"
          : innermost.getClass().getSimpleName();
    }
    return oneLine(message);
  }

  /** {@code text} with line breaks folded into spaces and cut to a bounded length. */
  static String oneLine(String text) {
    String folded = text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    return folded.length() <= MAX_CAUSE_CHARS ? folded : folded.substring(0, MAX_CAUSE_CHARS) + "…";
  }
}
