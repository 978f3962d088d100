package io.catalogviews.events.codec;

/**
 * Carries the {@code detail} of an undecodable value out of the decoding steps.
 *
 * <p>Bad records are ordinary input on a Kafka topic, so this exception has no stack trace: filling one in for
 * every bad record would make a flood of them expensive for nothing.
 */
final class UndecodableException extends Exception {
  private static final long serialVersionUID = 1L;

  UndecodableException(String detail) {
    super(detail, null, false, false);
  }
}
