package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.SchemaVersions;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code Product} schemas stored product states may have been written with, by fingerprint: the {@code Product}
 * of every released {@code ProductEvent} version (a release that changes {@code Product} releases a new event
 * version too, see {@link SchemaVersions}) and the current one. A state carries the fingerprint of its writer
 * schema (Avro single-object encoding), so a newer release reads the rows an older one stored, with Avro's
 * resolution rules, instead of misreading them.
 *
 * <p>Rows stored before states carried a fingerprint hold the bare Avro binary of the first released schema:
 * {@link #legacy()}.
 */
public final class StateSchemas {

    private static final StateSchemas RELEASED = of(SchemaVersions.released().schemas().stream()
            .map(StateSchemas::productOf).toList());

    private final Map<Long, Schema> byFingerprint;
    private final Schema legacy;

    private StateSchemas(Map<Long, Schema> byFingerprint, Schema legacy) {
        this.byFingerprint = Map.copyOf(byFingerprint);
        this.legacy = legacy;
    }

    /** The released writer schemas of this build. */
    public static StateSchemas released() {
        return RELEASED;
    }

    /**
     * A registry of these {@code Product} schemas, oldest first (the oldest is the legacy one), plus the current.
     */
    public static StateSchemas of(List<Schema> productSchemas) {
        Map<Long, Schema> index = new HashMap<>();
        for (Schema s : productSchemas) {
            index.put(fingerprint(s), s);
        }
        index.put(fingerprint(Product.getClassSchema()), Product.getClassSchema());
        return new StateSchemas(index, productSchemas.isEmpty() ? Product.getClassSchema() : productSchemas.get(0));
    }

    public Optional<Schema> byFingerprint(long fingerprint) {
        return Optional.ofNullable(byFingerprint.get(fingerprint));
    }

    /** The schema of states stored without a fingerprint. */
    public Schema legacy() {
        return legacy;
    }

    public static long fingerprint(Schema schema) {
        return SchemaNormalization.parsingFingerprint64(schema);
    }

    /** The {@code Product} record inside a {@code ProductEvent} schema ({@code change} → {@code ProductUpserted}). */
    static Schema productOf(Schema productEvent) {
        for (Schema branch : productEvent.getField("change").schema().getTypes()) {
            if (branch.getName().equals("ProductUpserted")) {
                return branch.getField("product").schema();
            }
        }
        throw new IllegalStateException("schema " + productEvent.getFullName() + " has no ProductUpserted change");
    }
}
