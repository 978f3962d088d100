package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.routing.ClusterState;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.Instance;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.StreamsException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link ClusterView} from Kafka Streams metadata, store lags (KIP-535) and the main consumer's
 * {@code records-lag} metrics (which, unlike committed offsets, step over transaction markers).
 */
public final class StreamsClusterView implements ClusterView {

    private static final List<String> PRODUCT_STORES = List.of(StoreNames.PRODUCTS);

    private final KafkaStreams streams;
    private final Instance self;
    private final String inputTopic;

    public StreamsClusterView(KafkaStreams streams, Instance self, String inputTopic) {
        this.streams = streams;
        this.self = self;
        this.inputTopic = inputTopic;
    }

    @Override
    public ClusterState state() {
        List<ClusterState.Member> members = new ArrayList<>();
        Collection<StreamsMetadata> all;
        try {
            all = streams.metadataForAllStreamsClients();
        } catch (StreamsException | IllegalStateException e) {
            all = List.of();
        }
        for (StreamsMetadata m : all) {
            members.add(new ClusterState.Member(new Instance(m.host(), m.port()),
                    partitionsByStore(m.topicPartitions()), partitionsByStore(m.standbyTopicPartitions())));
        }
        members.sort((a, b) -> a.instance().hostPort().compareTo(b.instance().hostPort()));
        return new ClusterState(self, streams.state().name(), members, lags(), caughtUp());
    }

    private Map<String, List<Integer>> partitionsByStore(Set<TopicPartition> partitions) {
        Map<String, List<Integer>> byStore = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            List<String> stores = tp.topic().equals(inputTopic) ? PRODUCT_STORES : List.of();
            for (String store : stores) {
                byStore.computeIfAbsent(store, s -> new ArrayList<>()).add(tp.partition());
            }
        }
        byStore.values().forEach(list -> list.sort(Integer::compare));
        return byStore;
    }

    private Map<String, Map<Integer, Long>> lags() {
        Map<String, Map<Integer, Long>> out = new TreeMap<>();
        try {
            for (Map.Entry<String, Map<Integer, LagInfo>> store : streams.allLocalStorePartitionLags().entrySet()) {
                Map<Integer, Long> partitions = new TreeMap<>();
                store.getValue().forEach((p, lag) -> partitions.put(p, lag.offsetLag()));
                out.put(store.getKey(), partitions);
            }
        } catch (StreamsException | IllegalStateException e) {
            // Not running: no local lags to report.
        }
        return out;
    }

    /** True when every partition the main consumers fetch has a {@code records-lag} of zero. */
    private boolean caughtUp() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        boolean any = false;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName name = e.getKey();
            if (!"records-lag".equals(name.name()) || !"consumer-fetch-manager-metrics".equals(name.group())) {
                continue;
            }
            String clientId = name.tags().getOrDefault("client-id", "");
            String topic = name.tags().get("topic");
            if (clientId.endsWith("restore-consumer") || topic == null
                    || !topic.equals(inputTopic)) {
                continue;
            }
            any = true;
            Object value = e.getValue().metricValue();
            if (!(value instanceof Double lag) || lag.isNaN() || lag > 0) {
                return false;
            }
        }
        return any || streams.metadataForLocalThreads().stream().allMatch(t -> t.activeTasks().isEmpty());
    }
}
