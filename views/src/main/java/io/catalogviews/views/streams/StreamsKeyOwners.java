package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.HostInfo;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link KeyOwners} from Kafka Streams metadata ({@code application.server} of each instance). */
public final class StreamsKeyOwners implements KeyOwners {

    private static final Serializer<String> KEY_SERIALIZER = Serdes.String().serializer();

    private final KafkaStreams streams;
    private final Instance self;
    private final int partitions;
    private final String inputTopic;
    private final String categoryTopic;

    /**
     * @param inputTopic    the source topic of the product stores
     * @param categoryTopic the source topic of the category stores (the repartition topic)
     */
    public StreamsKeyOwners(KafkaStreams streams, Instance self, int partitions, String inputTopic,
                            String categoryTopic) {
        this.streams = streams;
        this.self = self;
        this.partitions = partitions;
        this.inputTopic = inputTopic;
        this.categoryTopic = categoryTopic;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public Ownership ownerOfCategory(String category) {
        return owner(StoreNames.CATEGORY_LISTINGS, category);
    }

    @Override
    public Map<Integer, Instance> activeOwners(String storeName) {
        String topic = StoreNames.CATEGORY_LISTINGS.equals(storeName) ? categoryTopic : inputTopic;
        Map<Integer, Instance> owners = new HashMap<>();
        Collection<StreamsMetadata> all;
        try {
            all = streams.streamsMetadataForStore(storeName);
        } catch (StreamsException | IllegalStateException e) {
            return owners;
        }
        for (StreamsMetadata metadata : all) {
            if (HostInfo.unavailable().equals(metadata.hostInfo())) {
                continue;
            }
            for (TopicPartition tp : metadata.topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    owners.put(tp.partition(), toInstance(metadata.hostInfo()));
                }
            }
        }
        return owners;
    }

    @Override
    public Instance self() {
        return self;
    }

    @Override
    public Ownership ownerOfProduct(String productId) {
        return owner(StoreNames.PRODUCTS, productId);
    }

    private Ownership owner(String store, String key) {
        int partition = KeyPartitioner.partitionOf(key, partitions);
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(store, key, KEY_SERIALIZER);
        } catch (StreamsException | IllegalStateException e) {
            // Not started yet or already closed: nobody is known to own the key from here.
            return new Ownership(partition, Optional.empty(), List.of());
        }
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || metadata.activeHost() == null || HostInfo.unavailable().equals(metadata.activeHost())) {
            return new Ownership(partition, Optional.empty(), List.of());
        }
        List<Instance> standbys = metadata.standbyHosts().stream().map(StreamsKeyOwners::toInstance).toList();
        return new Ownership(metadata.partition(), Optional.of(toInstance(metadata.activeHost())), standbys);
    }

    private static Instance toInstance(HostInfo host) {
        return new Instance(host.host(), host.port());
    }
}
