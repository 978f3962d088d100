package io.catalogviews.events.registry;

import java.util.Objects;

/** What a schema registry answered about one schema id: its schema, or that it does not know the id. */
public sealed interface RegistryLookup {

  /** The id asked about. */
  int id();

  /**
   * The registry holds a schema under this id.
   *
   * @param id the schema id
   * @param schema the schema text as registered (for Avro: the schema's JSON)
   * @param schemaType {@code AVRO} (Confluent omits the field for Avro), {@code PROTOBUF} or {@code JSON}
   */
  record Found(int id, String schema, String schemaType) implements RegistryLookup {
    public Found {
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(schemaType, "schemaType");
    }
  }

  /**
   * The registry answered that it holds no schema under this id (Confluent's error code 40403).
   *
   * @param id the schema id
   * @param message the registry's own message
   */
  record NotFound(int id, String message) implements RegistryLookup {
    public NotFound {
      Objects.requireNonNull(message, "message");
    }
  }
}
