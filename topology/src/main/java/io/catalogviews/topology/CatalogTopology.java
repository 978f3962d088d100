package io.catalogviews.topology;

import io.catalogviews.topology.internals.CategoryChangeProcessor;
import io.catalogviews.topology.internals.ProductEventProcessor;
import io.catalogviews.topology.internals.RouteTags;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.store.ViewStores;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology, as one pure function of {@link TopologySettings}; used by the service, the
 * unit tests (TopologyTestDriver) and the integration tests alike.
 *
 * <pre>
 * catalog.product-events ─► apply-product-events ─┬─► product-view (+ whole-catalog indexes), product-deletions
 *                                                 ├─► catalog.product-events.dlq (dead letters)
 *                                                 └─► category-changes (repartition, keyed by category)
 *                                                       └─► apply-category-changes ─► category-listings
 *                                                                                     (+ category indexes)
 * </pre>
 * Everything runs under exactly-once: a product task's view, whole-catalog indexes, dead letters and category
 * changes commit in one transaction; the category task's stores in the next.
 */
public final class CatalogTopology {

    static final String SOURCE = "product-events";
    static final String APPLY = "apply-product-events";
    static final String APPLY_CATEGORIES = "apply-category-changes";

    private CatalogTopology() {
    }

    public static Topology build(TopologySettings settings) {
        StreamsBuilder builder = new StreamsBuilder();
        // No record cache: the stored rows are what reads serve, and the cache would only delay them.
        // Views keep their indexes beside their rows and log only the rows (ViewStores).
        builder.addStateStore(bytesStore(ViewStores.products(StoreNames.PRODUCTS)));
        builder.addStateStore(bytesStore(ViewStores.categoryListings(StoreNames.CATEGORY_LISTINGS)));
        builder.addStateStore(bytesStore(Stores.persistentKeyValueStore(StoreNames.PRODUCT_DELETIONS)));
        Serde<byte[]> bytes = Serdes.ByteArray();
        KStream<byte[], byte[]> routed = builder.stream(settings.inputTopic(),
                        Consumed.with(bytes, bytes).withName(SOURCE))
                .process(() -> new ProductEventProcessor(settings), Named.as(APPLY), StoreNames.PRODUCTS,
                        StoreNames.PRODUCT_DELETIONS);
        routed.split(Named.as("route-"))
                .branch((key, value) -> RouteTags.isDeadLetter(key), Branched.withConsumer(deadLetters -> deadLetters
                        .selectKey((key, value) -> RouteTags.untag(key), Named.as("untag-dead-letters"))
                        .to(settings.deadLetterTopic(), Produced.with(bytes, bytes).withName("dead-letters")),
                        "dead-letters"))
                .defaultBranch(Branched.withConsumer(changes -> changes
                        .selectKey((key, value) -> RouteTags.untag(key), Named.as("untag-category-changes"))
                        .repartition(Repartitioned.<byte[], byte[]>as(StoreNames.CATEGORY_CHANGES)
                                .withKeySerde(bytes).withValueSerde(bytes))
                        .process(CategoryChangeProcessor::new, Named.as(APPLY_CATEGORIES),
                                StoreNames.CATEGORY_LISTINGS), "category-changes"));
        return builder.build();
    }

    /** The repartition topic of category changes, as Kafka Streams names it for an application id. */
    public static String categoryChangesTopic(String applicationId) {
        return applicationId + "-" + StoreNames.CATEGORY_CHANGES + "-repartition";
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> bytesStore(KeyValueBytesStoreSupplier supplier) {
        return Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled();
    }
}
