package io.catalogviews.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.catalogviews.events.ProductEvent;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParser;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.specific.SpecificRecord;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What a shop's producer uses: Apicurio Registry's Avro serializer for Kafka, registering its writer schema under
 * the topic's subject ({@code <topic>-value}, TopicIdStrategy) and writing the Confluent framing (0x00, 4-byte content
 * id, Avro binary). Events are given as {@code GenericRecord}s of the writer schema, as a producer that never saw this
 * project's generated classes would build them.
 */
final class ApicurioSerde {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ApicurioSerde() {
    }

    /** The serializer's configuration for a Kafka producer ({@code value.serializer} and its properties). */
    static Map<String, Object> producerConfig(String apicurioApiUrl) {
        return Map.of("value.serializer", AvroKafkaSerializer.class.getName(),
                "apicurio.registry.url", apicurioApiUrl,
                "apicurio.registry.auto-register", "true",
                // The id the Confluent-compatible API serves under /schemas/ids/{id}: content ids.
                "apicurio.registry.use-id", "contentId");
    }

    /** A configured value serializer, to serialize outside a producer (to learn the id a value carries). */
    static AvroKafkaSerializer<GenericRecord> serializer(String apicurioApiUrl) {
        AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>();
        serializer.configure(producerConfig(apicurioApiUrl), false);
        return serializer;
    }

    /** The schema id in a Confluent-framed value. */
    static int schemaId(byte[] value) {
        return ((value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
    }

    /** The contract's current schema. */
    static Schema current() {
        return ProductEvent.getClassSchema();
    }

    /** An older producer's schema: the current one without {@code Product.rating} (a field with a default). */
    static Schema olderWithoutRating() {
        return edited(root -> {
            ArrayNode productFields = productFields(root);
            for (int i = 0; i < productFields.size(); i++) {
                if (productFields.get(i).get("name").asText().equals("rating")) {
                    productFields.remove(i);
                }
            }
            return root;
        });
    }

    /** A shop's look-alike schema under its own namespace: other full names, so Avro cannot resolve it. */
    static Schema otherNamespace() {
        return parse(current().toString().replace("io.catalogviews.events", "com.shop.events"));
    }

    /** The current schema with {@code Product.stock} as a string: a type change that does not resolve. */
    static Schema stockAsString() {
        return edited(root -> {
            for (var field : productFields(root)) {
                if (field.get("name").asText().equals("stock")) {
                    ((ObjectNode) field).put("type", "string");
                }
            }
            return root;
        });
    }

    /**
     * {@code value} (generated classes) as data of {@code schema}, field by field by name; fields the schema lacks
     * are dropped, timestamps become longs.
     */
    static Object toGeneric(Schema schema, Object value) {
        switch (schema.getType()) {
            case RECORD -> {
                SpecificRecord record = (SpecificRecord) value;
                GenericRecordBuilder builder = new GenericRecordBuilder(schema);
                for (Schema.Field field : schema.getFields()) {
                    Schema.Field known = record.getSchema().getField(field.name());
                    if (known != null) {
                        builder.set(field, toGeneric(field.schema(), record.get(known.pos())));
                    }
                }
                return builder.build();
            }
            case UNION -> {
                if (value == null) {
                    return null;
                }
                for (Schema branch : schema.getTypes()) {
                    boolean matches = value instanceof SpecificRecord record
                            ? branch.getType() == Schema.Type.RECORD
                            && branch.getName().equals(record.getSchema().getName())
                            : branch.getType() != Schema.Type.NULL;
                    if (matches) {
                        return toGeneric(branch, value);
                    }
                }
                throw new IllegalArgumentException("no branch of " + schema + " for " + value);
            }
            case LONG -> {
                return value instanceof Instant instant ? instant.toEpochMilli() : value;
            }
            case STRING -> {
                return value == null ? null : value.toString();
            }
            default -> {
                return value;
            }
        }
    }

    static GenericRecord record(Schema schema, ProductEvent event) {
        return (GenericRecord) toGeneric(schema, event);
    }

    private static ArrayNode productFields(ObjectNode root) {
        ObjectNode upserted = (ObjectNode) root.withArray("fields").get(4).get("type").get(0);
        return (ArrayNode) upserted.withArray("fields").get(0).get("type").get("fields");
    }

    private static Schema edited(UnaryOperator<ObjectNode> edit) {
        try {
            return parse(JSON.writeValueAsString(edit.apply((ObjectNode) JSON.readTree(current().toString()))));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Schema parse(String json) {
        return new SchemaParser().parse(json).mainSchema();
    }
}
