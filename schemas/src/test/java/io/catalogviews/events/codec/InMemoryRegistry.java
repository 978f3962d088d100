package io.catalogviews.events.codec;

import io.catalogviews.events.registry.RegistryLookup;
import io.catalogviews.events.registry.SchemaLookup;
import io.catalogviews.events.registry.SchemaRegistryUnavailableException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * The registry's answers held in memory, for the codec's unit and fuzz tests: they test decoding, and must run
 * thousands of cases fast. The HTTP client is tested against an HTTP server (SchemaRegistryClientTest) and the whole
 * path against a real Apicurio Registry (tests module, io.catalogviews.registry).
 */
final class InMemoryRegistry implements SchemaLookup {
  private final Map<Integer, RegistryLookup.Found> schemas = new ConcurrentHashMap<>();
  private final AtomicInteger lookups = new AtomicInteger();
  private final AtomicBoolean down = new AtomicBoolean();

  InMemoryRegistry with(int id, Schema schema) {
    return with(id, schema.toString(), "AVRO");
  }

  InMemoryRegistry with(int id, String schema, String type) {
    schemas.put(id, new RegistryLookup.Found(id, schema, type));
    return this;
  }

  void down(boolean isDown) {
    down.set(isDown);
  }

  int lookups() {
    return lookups.get();
  }

  @Override
  public RegistryLookup schemaById(int id) {
    lookups.incrementAndGet();
    if (down.get()) {
      throw new SchemaRegistryUnavailableException("mem://registry", id, "connection refused");
    }
    RegistryLookup.Found found = schemas.get(id);
    return found != null ? found : new RegistryLookup.NotFound(id, "No content with ID '" + id + "' was found.");
  }

  /** References are looked up among the ids: subject {@code "id-<n>"} names id n (any version). */
  @Override
  public RegistryLookup referenced(RegistryLookup.Reference reference, int forId) {
    int id = Integer.parseInt(reference.subject().substring("id-".length()));
    RegistryLookup answer = schemaById(id);
    return answer instanceof RegistryLookup.Found found
        ? new RegistryLookup.Found(forId, found.schema(), found.schemaType(), found.references())
        : new RegistryLookup.NotFound(forId, "Subject '" + reference.subject() + "' not found.");
  }

  InMemoryRegistry withReferences(int id, String schema, List<RegistryLookup.Reference> references) {
    schemas.put(id, new RegistryLookup.Found(id, schema, "AVRO", references));
    return this;
  }
}
