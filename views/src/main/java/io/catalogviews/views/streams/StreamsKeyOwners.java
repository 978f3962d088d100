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
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.HostInfo;

import java.util.List;
import java.util.Optional;

/** {@link KeyOwners} from Kafka Streams metadata ({@code application.server} of each instance). */
public final class StreamsKeyOwners implements KeyOwners {

    private static final Serializer<String> KEY_SERIALIZER = Serdes.String().serializer();

    private final KafkaStreams streams;
    private final Instance self;
    private final int partitions;

    public StreamsKeyOwners(KafkaStreams streams, Instance self, int partitions) {
        this.streams = streams;
        this.self = self;
        this.partitions = partitions;
    }

    @Override
    public Instance self() {
        return self;
    }

    @Override
    public Ownership ownerOfProduct(String productId) {
        int partition = KeyPartitioner.partitionOf(productId, partitions);
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(StoreNames.PRODUCTS, productId, KEY_SERIALIZER);
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
