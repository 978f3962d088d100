package io.catalogviews.topology;

import io.catalogviews.topology.internals.ProductEventProcessor;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.store.ViewStores;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology, as one pure function of {@link TopologySettings}; used by the service, the
 * unit tests (TopologyTestDriver) and the integration tests alike.
 *
 * <pre>
 * catalog.product-events ─► apply-product-events ─┬─► product-view (+ the whole catalog's and each category's
 *                                                 │   indexes and facets), product-deletions
 *                                                 └─► catalog.product-events.dlq (dead letters)
 * </pre>
 * Everything runs under exactly-once: a product task's view with every listing of its products, and its dead
 * letters, commit in one transaction. One stage: the category listings are derived from the product rows in the
 * same store (docs/design.md, "Writes: what two exactly-once stages cost"), so a change is in its category pages
 * with the commit that puts it in the product view.
 */
public final class CatalogTopology {

    static final String SOURCE = "product-events";
    static final String APPLY = "apply-product-events";

    private CatalogTopology() {
    }

    public static Topology build(TopologySettings settings) {
        StreamsBuilder builder = new StreamsBuilder();
        // No record cache: the stored rows are what reads serve, and the cache would only delay them.
        // The view keeps its indexes beside its rows and logs only the rows (ViewStores).
        builder.addStateStore(bytesStore(ViewStores.products(StoreNames.PRODUCTS)));
        builder.addStateStore(bytesStore(Stores.persistentKeyValueStore(StoreNames.PRODUCT_DELETIONS)));
        Serde<byte[]> bytes = Serdes.ByteArray();
        // The processor forwards dead letters only, with their original keys.
        builder.stream(settings.inputTopic(), Consumed.with(bytes, bytes).withName(SOURCE))
                .process(() -> new ProductEventProcessor(settings), Named.as(APPLY), StoreNames.PRODUCTS,
                        StoreNames.PRODUCT_DELETIONS)
                .to(settings.deadLetterTopic(), Produced.with(bytes, bytes).withName("dead-letters"));
        return builder.build();
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> bytesStore(KeyValueBytesStoreSupplier supplier) {
        return Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled();
    }
}
