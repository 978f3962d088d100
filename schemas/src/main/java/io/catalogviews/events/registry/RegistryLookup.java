package io.catalogviews.events.registry;

import java.util.List;
import java.util.Objects;

/** What a schema registry answered about one schema id: its schema, or that it does not know the id. */
public sealed interface RegistryLookup {

  /** The id asked about. */
  int id();

  /**
   * The registry holds a schema under this id.
   *
   * @param id the schema id (for a referenced schema: the id of the schema that refers to it)
   * @param schema the schema text as registered (for Avro: the schema's JSON)
   * @param schemaType {@code AVRO} (Confluent omits the field for Avro), {@code PROTOBUF} or {@code JSON}
   * @param references the named types the schema uses but does not define, registered under subjects of their
   *     own (Apicurio's serializers register every nested record that way); empty for a self-contained schema
   */
  record Found(int id, String schema, String schemaType, List<Reference> references) implements RegistryLookup {
    public Found {
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(schemaType, "schemaType");
      references = List.copyOf(references);
    }

    /** A self-contained schema. */
    public Found(int id, String schema, String schemaType) {
      this(id, schema, schemaType, List.of());
    }
  }

  /**
   * A schema reference (Confluent's {@code references} entry): the named type {@code name} is the schema registered
   * as {@code version} of {@code subject}.
   */
  record Reference(String name, String subject, int version) {
    public Reference {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(subject, "subject");
    }

    @Override
    public String toString() {
      return name + " (subject " + subject + " version " + version + ")";
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
