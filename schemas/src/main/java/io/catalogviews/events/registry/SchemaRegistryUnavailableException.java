package io.catalogviews.events.registry;

import org.apache.kafka.common.KafkaException;

/**
 * The schema registry could not give an answer about a schema id: it cannot be reached, did not answer in time,
 * refused the credentials, answered with a server error, or is not a Confluent-compatible API at the configured URL.
 * The value that needed the schema is not a bad record; the caller must read it again later and never dead-letter
 * it for this.
 *
 * <p>Why a {@link KafkaException}: the service's processing exception handler dead-letters whatever a processor
 * throws as {@code processing_error}, except Kafka's own exceptions, on which it fails the stream thread. Failing is
 * what a registry outage needs: the thread's transaction is aborted and the record is read again by the thread that
 * replaces it (the service pauses ingestion until the registry answers again, so this happens once per outage, not
 * in a loop).
 */
public final class SchemaRegistryUnavailableException extends KafkaException {
  private static final long serialVersionUID = 1L;

  private final String registry;
  private final int schemaId;
  private final String reason;

  /**
   * @param registry the registry's API root, as configured
   * @param schemaId the schema id that could not be looked up
   * @param reason why, in a few words ("connection refused", "HTTP 503: ...")
   */
  public SchemaRegistryUnavailableException(String registry, int schemaId, String reason) {
    super("schema registry " + registry + " cannot be reached for schema id " + schemaId + ": " + reason
        + "; the record is not dead-lettered, it is read again once the registry answers");
    this.registry = registry;
    this.schemaId = schemaId;
    this.reason = reason;
  }

  /** The registry's API root, as configured. */
  public String registry() {
    return registry;
  }

  /** The schema id that was being looked up. */
  public int schemaId() {
    return schemaId;
  }

  /** Why the registry gave no answer. */
  public String reason() {
    return reason;
  }

  /** The first {@code SchemaRegistryUnavailableException} in {@code failure}'s cause chain, or null. */
  public static SchemaRegistryUnavailableException in(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SchemaRegistryUnavailableException unavailable) {
        return unavailable;
      }
    }
    return null;
  }
}
