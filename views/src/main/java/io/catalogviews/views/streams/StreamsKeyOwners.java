package io.catalogviews.views.streams;

import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.HostInfo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link KeyOwners} from Kafka Streams metadata ({@code application.server} of each instance).
 *
 * <p>Owners are looked up in a table of every partition, built once per metadata generation: Kafka Streams
 * rebuilds its metadata objects at each rebalance, so a table stays right while the objects it was built from are
 * the ones Kafka Streams still hands out (compared by identity on every call, which costs a short lock and a few
 * reference comparisons). {@code KafkaStreams.queryMetadataForKey} per key held a lock shared by every request
 * thread, serialized the key and scanned the metadata for each id: a batch of 100 ids made 100 such calls.
 */
public final class StreamsKeyOwners implements KeyOwners {

    private final KafkaStreams streams;
    private final Instance self;
    private final int partitions;
    private final String inputTopic;
    private volatile Table table;

    /** Every partition's owners, for the metadata objects it was built from. */
    private record Table(List<StreamsMetadata> source, Ownership[] products) {

        boolean builtFrom(Collection<StreamsMetadata> now) {
            if (now.size() != source.size()) {
                return false;
            }
            int i = 0;
            for (StreamsMetadata m : now) {
                if (m != source.get(i++)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * @param inputTopic the source topic of the product stores
     */
    public StreamsKeyOwners(KafkaStreams streams, Instance self, int partitions, String inputTopic) {
        this.streams = streams;
        this.self = self;
        this.partitions = partitions;
        this.inputTopic = inputTopic;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public Ownership ownerOfProduct(String productId) {
        return table().products()[KeyPartitioner.partitionOf(productId, partitions)];
    }

    @Override
    public Map<Integer, Instance> activeOwners(String storeName) {
        Map<Integer, Instance> active = new HashMap<>();
        for (Ownership o : table().products()) {
            o.active().ifPresent(instance -> active.put(o.partition(), instance));
        }
        return active;
    }

    @Override
    public Instance self() {
        return self;
    }

    private Table table() {
        Collection<StreamsMetadata> now;
        try {
            now = streams.metadataForAllStreamsClients();
        } catch (StreamsException | IllegalStateException e) {
            // Not started yet or already closed: nobody is known to own anything from here.
            now = List.of();
        }
        Table current = table;
        if (current == null || !current.builtFrom(now)) {
            current = build(now);
            table = current;
        }
        return current;
    }

    private Table build(Collection<StreamsMetadata> metadata) {
        List<StreamsMetadata> source = new ArrayList<>(metadata);
        return new Table(source, owners(source, inputTopic));
    }

    private Ownership[] owners(List<StreamsMetadata> metadata, String topic) {
        Instance[] active = new Instance[partitions];
        List<List<Instance>> standbys = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            standbys.add(new ArrayList<>());
        }
        for (StreamsMetadata m : metadata) {
            if (HostInfo.unavailable().equals(m.hostInfo())) {
                continue;
            }
            Instance instance = toInstance(m.hostInfo());
            for (TopicPartition tp : m.topicPartitions()) {
                if (tp.topic().equals(topic) && tp.partition() < partitions) {
                    active[tp.partition()] = instance;
                }
            }
            for (TopicPartition tp : m.standbyTopicPartitions()) {
                if (tp.topic().equals(topic) && tp.partition() < partitions) {
                    standbys.get(tp.partition()).add(instance);
                }
            }
        }
        Ownership[] out = new Ownership[partitions];
        for (int p = 0; p < partitions; p++) {
            // As Kafka Streams' key metadata does: no active host known, no owner to ask (standbys included).
            out[p] = active[p] == null ? new Ownership(p, Optional.empty(), List.of())
                    : new Ownership(p, Optional.of(active[p]), List.copyOf(standbys.get(p)));
        }
        return out;
    }

    private static Instance toInstance(HostInfo host) {
        return new Instance(host.host(), host.port());
    }
}
