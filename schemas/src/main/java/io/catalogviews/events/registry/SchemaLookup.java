package io.catalogviews.events.registry;

/**
 * Looks up the writer schema registered under a Confluent Schema Registry schema id. {@link SchemaRegistryClient}
 * is the implementation; the codec depends on this interface only.
 */
public interface SchemaLookup {

  /**
   * The registry's answer about {@code id}.
   *
   * @return the schema, or that the registry does not know the id; never null
   * @throws SchemaRegistryUnavailableException when the registry gives no answer (not reachable, server error,
   *     credentials refused): the caller must try again later, the id is neither known nor unknown
   */
  RegistryLookup schemaById(int id);

  /**
   * The schema a reference of schema id {@code forId} names (version {@code reference.version()} of its subject).
   *
   * @return the schema, or that the registry does not have that subject version; never null
   * @throws SchemaRegistryUnavailableException when the registry gives no answer
   */
  RegistryLookup referenced(RegistryLookup.Reference reference, int forId);
}
