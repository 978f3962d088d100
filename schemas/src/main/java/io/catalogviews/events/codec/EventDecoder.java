package io.catalogviews.events.codec;

import io.catalogviews.events.registry.SchemaRegistryUnavailableException;

/**
 * Decodes one value of the input topic into a {@code ProductEvent}, or says why it is undecodable.
 * {@link ProductEventCodec} is the implementation, with or without a schema registry; one instance is shared by
 * every stream thread, so implementations are thread-safe.
 */
@FunctionalInterface
public interface EventDecoder {

  /**
   * Decodes one record value (a tombstone, a null value, is handled by the caller before decoding).
   *
   * @return the event and its encoding, or the precise reason the value is undecodable; never null
   * @throws SchemaRegistryUnavailableException only when the value is framed for a schema registry that gives no
   *     answer now: that is not a bad record, and the caller must read the value again later rather than
   *     dead-letter it. Nothing else is thrown, whatever the bytes.
   */
  DecodeResult decode(byte[] value);
}
