package io.catalogviews.topology;

import io.catalogviews.topology.internals.ProductEventProcessor;
import io.catalogviews.views.StoreNames;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology, as one pure function of {@link TopologySettings}; used by the service, the
 * unit tests (TopologyTestDriver) and the integration tests alike.
 *
 * <pre>
 * catalog.product-events ─► apply-product-events ─┬─► product-view, product-deletions (stores)
 *                                                 └─► catalog.product-events.dlq (dead letters)
 * </pre>
 */
public final class CatalogTopology {

    static final String SOURCE = "product-events";
    static final String APPLY = "apply-product-events";

    private CatalogTopology() {
    }

    public static Topology build(TopologySettings settings) {
        Topology topology = new Topology();
        topology.addSource(SOURCE, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                settings.inputTopic());
        topology.addProcessor(APPLY, () -> new ProductEventProcessor(settings), SOURCE);
        // No record cache: the stored row is what a read serves, and the cache would only delay it.
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.PRODUCTS),
                Serdes.String(), Serdes.ByteArray()).withCachingDisabled(), APPLY);
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(StoreNames.PRODUCT_DELETIONS),
                Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), APPLY);
        topology.addSink(ProductEventProcessor.DEAD_LETTER_SINK, settings.deadLetterTopic(),
                Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(), APPLY);
        return topology;
    }
}
