package io.catalogviews.events.codec;

/**
 * A value decoded by {@link EventValueDecoder}, with the encoding it was found in.
 *
 * @param value the decoded datum, never null
 * @param encoding the detected encoding
 * @param <T> the datum type (a generated class, or {@code GenericRecord})
 */
record DecodedValue<T>(T value, Encoding encoding) {}
