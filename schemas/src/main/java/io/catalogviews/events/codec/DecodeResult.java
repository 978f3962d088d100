package io.catalogviews.events.codec;

import io.catalogviews.events.ProductEvent;
import java.util.Objects;

/**
 * Outcome of decoding one record value: either an event or the reason it is undecodable.
 *
 * <p>An undecodable value is dead-lettered with reason {@code undecodable} and {@link Undecodable#detail()} as the
 * {@code dlq.detail} header (CONTRACT.md, section 1).
 */
public sealed interface DecodeResult {

  /**
   * A decoded event.
   *
   * @param event the event, resolved to the current reader schema; never null
   * @param encoding the encoding the value was written in
   */
  record Decoded(ProductEvent event, Encoding encoding) implements DecodeResult {
    public Decoded {
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(encoding, "encoding");
    }
  }

  /**
   * A value that is not a {@code ProductEvent} in an accepted encoding.
   *
   * @param detail one human-readable sentence saying precisely why; never blank
   */
  record Undecodable(String detail) implements DecodeResult {
    public Undecodable {
      if (detail == null || detail.isBlank()) {
        throw new IllegalArgumentException("detail must not be blank");
      }
    }
  }
}
