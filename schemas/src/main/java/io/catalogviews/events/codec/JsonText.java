package io.catalogviews.events.codec;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The text-level checks of an Avro JSON value, done before Avro parses it: strict UTF-8, and where the JSON object
 * ends.
 *
 * <p>Why here and not in Avro: Avro's {@code JsonDecoder} reads a stream of concatenated values, so it silently
 * ignores anything after the first object; and the JSON parser it uses guesses the character set from the first
 * bytes (UTF-16 and UTF-32 included) and would let malformed UTF-8 through as replacement characters. The contract
 * says one event per record, in UTF-8.
 */
final class JsonText {
  private JsonText() {}

  /** True for the four JSON whitespace bytes. */
  static boolean isWhitespace(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  /**
   * Index of the first byte after leading JSON whitespace and an optional UTF-8 byte order mark, or
   * {@code value.length} if there is none.
   */
  static int firstSignificantByte(byte[] value) {
    int i = 0;
    // A byte order mark is not JSON, but editors on some systems add one; tolerating it costs nothing.
    if (value.length >= 3 && (value[0] & 0xFF) == 0xEF && (value[1] & 0xFF) == 0xBB && (value[2] & 0xFF) == 0xBF) {
      i = 3;
    }
    while (i < value.length && isWhitespace(value[i])) {
      i++;
    }
    return i;
  }

  /**
   * Decodes {@code value} from {@code offset} as strict UTF-8.
   *
   * @throws UndecodableException naming the offset of the first malformed byte
   */
  static String utf8(byte[] value, int offset) throws UndecodableException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(value, offset, value.length - offset);
    CharBuffer out = CharBuffer.allocate(value.length - offset);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      throw new UndecodableException("Avro JSON is not valid UTF-8: malformed byte sequence at byte offset "
          + in.position() + " (" + Details.hexByte(value[in.position()]) + ")");
    }
    out.flip();
    return out.toString();
  }

  /**
   * Index just after the JSON object starting at {@code start} ({@code text.charAt(start) == '{'}), or -1 if the
   * text ends first. Only braces, brackets and strings are tracked: the text's validity is Avro's job; this only
   * finds where the first value stops.
   */
  static int endOfObject(String text, int start) {
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }

  /** Index of the first non-whitespace character at or after {@code from}, or -1 if there is none. */
  static int firstNonWhitespace(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      if (!isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
