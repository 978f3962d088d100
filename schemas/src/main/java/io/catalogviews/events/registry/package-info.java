/**
 * A small client of a schema registry's Confluent-compatible REST API
 * ({@link io.catalogviews.events.registry.SchemaRegistryClient}), for the third encoding of the input topic
 * (CONTRACT.md section 4): values framed as Confluent's serializers write them, {@code 0x00} and a 4-byte schema
 * id, decoded with the writer schema the registry holds under the id.
 *
 * <p>The codec depends only on {@link io.catalogviews.events.registry.SchemaLookup}; an answer is a schema or "no
 * such schema" ({@link io.catalogviews.events.registry.RegistryLookup}), anything else is
 * {@link io.catalogviews.events.registry.SchemaRegistryUnavailableException}, which is never a reason to
 * dead-letter a record.
 */
package io.catalogviews.events.registry;
