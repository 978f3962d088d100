package io.catalogviews.events.codec;

import io.catalogviews.events.ProductEvent;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.avro.util.ClassSecurityValidator.ClassSecurityPredicate;

/**
 * Lets Avro instantiate the generated event classes ({@code io.catalogviews.events.*}) when reading.
 *
 * <p>Why: since Avro 1.11.4/1.12.0, {@code SpecificData} refuses to load any class named by a schema unless the
 * JVM-wide {@link ClassSecurityValidator} trusts it (a defence against schemas that name arbitrary classes). Out of
 * the box it trusts only JDK value types, so decoding a {@code ProductEvent} fails with a {@code SecurityException}
 * ("Forbidden io.catalogviews.events.ProductUpserted! This class is not trusted..."), and so does any deep copy
 * such as {@code ProductEvent.newBuilder(event)}. The alternative, the system property
 * {@code org.apache.avro.SERIALIZABLE_PACKAGES}, would have to be set on every command line.
 *
 * <p>{@link #install()} adds exactly the record types named by the current {@code ProductEvent} schema to whatever
 * predicate is already installed (it never replaces or widens it otherwise). {@link ProductEventCodec} and
 * {@link ProductEvents} call it when they are first used; code that touches Avro's specific API before either
 * should call it itself.
 */
public final class EventClassTrust {
  private static boolean installed;

  private EventClassTrust() {}

  /** Trusts the generated event classes in Avro's global class validator; idempotent and thread-safe. */
  public static synchronized void install() {
    ClassSecurityPredicate current = ClassSecurityValidator.getGlobal();
    // Someone may have replaced the global predicate since the last call; checking the predicate itself, not only
    // a flag, keeps install() effective in that case.
    if (installed && current.isTrusted(ProductEvent.class)) {
      return;
    }
    ClassSecurityValidator.Builder ours = ClassSecurityValidator.builder();
    namedTypes(ProductEvent.getClassSchema(), new LinkedHashSet<>()).forEach(ours::add);
    ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(current, ours.build()));
    installed = true;
  }

  /** Full names of the records, enums and fixed types reachable from {@code schema}: the generated class names. */
  static Set<String> namedTypes(Schema schema, Set<String> names) {
    switch (schema.getType()) {
      case RECORD -> {
        if (names.add(schema.getFullName())) {
          schema.getFields().forEach(field -> namedTypes(field.schema(), names));
        }
      }
      case ENUM, FIXED -> names.add(schema.getFullName());
      case UNION -> schema.getTypes().forEach(branch -> namedTypes(branch, names));
      case ARRAY -> namedTypes(schema.getElementType(), names);
      case MAP -> namedTypes(schema.getValueType(), names);
      default -> { }
    }
    return names;
  }
}
