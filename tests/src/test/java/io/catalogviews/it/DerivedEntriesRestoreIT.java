package io.catalogviews.it;

import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.ids.ProductId;

import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.model.HistoryGenerator;
import io.catalogviews.topology.CatalogTopology;
import io.catalogviews.topology.EventOutcomeListener;
import io.catalogviews.topology.StreamsSettings;
import io.catalogviews.topology.TopicSetup;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.index.ViewLayout;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.routing.Instance;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.processor.internals.ProcessorStateManager;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The views log only their rows; their index and facet entries are derived again whenever rows are restored.
 * This test holds that promise to the byte: the stores that an instance built by processing events, and the
 * stores that a new instance rebuilt from the changelogs alone (empty state directory), hold exactly the same
 * keys and values, derived entries included.
 */
@Tag("integration")
@Timeout(300)
class DerivedEntriesRestoreIT {

    private static final int PARTITIONS = 3;
    private static final int PRODUCTS = 200;
    private static final int EVENTS = 2_000;
    private static final List<String> VIEWS = List.of(StoreNames.PRODUCTS);

    @Test
    void shouldHoldTheSameRowsAndDerivedEntriesWhenAnInstanceRestoresFromTheChangelogsOnly() throws Exception {
        String appId = "restore-it-" + UUID.randomUUID().toString().substring(0, 8);
        String topic = appId + ".events";
        Path state = Path.of("target", "it-state", appId);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            TopicSetup.ensureTopics(admin, topic, topic + ".dlq", PARTITIONS, Duration.ofDays(1));
        }
        List<HistoryEvent> history = HistoryGenerator.generate(20261201L, PRODUCTS, EVENTS);
        CatalogModel model = CatalogModel.of(history);
        try (TestProducer producer = new TestProducer(topic)) {
            for (HistoryEvent e : history) {
                producer.send(e);
            }
        }

        Map<String, String> processed;
        try (KafkaStreams first = start(appId, topic, state.resolve("first"))) {
            await().alias("the first instance applied every event").atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                    .until(() -> caughtUp(first, model));
            processed = snapshot(first);
        }
        assertThat(changelogSegmentBytes(appId)).as("segment.bytes of each view's changelog: small, so that the "
                        + "broker compacts all but its tail and a rebuild replays about one record per row")
                .containsOnlyKeys(VIEWS).allSatisfy((view, bytes) -> assertThat(bytes)
                        .isEqualTo(StreamsSettings.INTERNAL_TOPIC_SEGMENT_BYTES));
        long derived = processed.keySet().stream().filter(k -> !ViewLayout.isRowKey(HexFormat.of().parseHex(
                k.substring(k.indexOf('/', k.indexOf('/') + 1) + 1)))).count();
        assertThat(derived).as("index and facet entries derived by processing").isGreaterThan(PRODUCTS * 8L);

        try (KafkaStreams restored = start(appId, topic, state.resolve("second"))) {
            await().alias("the second instance restored every view from the changelogs").atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                    .until(() -> restored.state() == KafkaStreams.State.RUNNING && caughtUp(restored, model));
            Map<String, String> rebuilt = snapshot(restored);
            assertThat(rebuilt).as("stores rebuilt from rows only vs stores built by processing")
                    .containsExactlyEntriesOf(processed);
        }
        System.out.printf("restore: %d products, %d events, %d stored keys (%d derived) identical after a restore "
                + "from the changelogs%n", PRODUCTS, EVENTS, processed.size(), derived);
    }

    private static Map<String, Integer> changelogSegmentBytes(String appId) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            for (String view : VIEWS) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC,
                        ProcessorStateManager.storeChangelogTopic(appId, view, null));
                Config config = admin.describeConfigs(List.of(topic)).all().get().get(topic);
                out.put(view, Integer.parseInt(config.get(TopicConfig.SEGMENT_BYTES_CONFIG).value()));
            }
        }
        return out;
    }

    private static KafkaStreams start(String appId, String topic, Path stateDir) {
        TopologySettings topology = new TopologySettings(topic, topic + ".dlq", PARTITIONS,
                TopologySettings.DEFAULT_DELETED_RETENTION, Duration.ofMinutes(1), EventOutcomeListener.NONE);
        StreamsSettings settings = new StreamsSettings(appId, TestKafka.bootstrapServers(),
                new Instance("localhost", 1), stateDir, 0, 1, 32L << 20, Map.of());
        KafkaStreams streams = new KafkaStreams(CatalogTopology.build(topology), settings.toProperties());
        streams.start();
        return streams;
    }

    /**
     * Every product row at its model version (each category scope's entries are written in the same batch as the row).
     */
    private static boolean caughtUp(KafkaStreams streams, CatalogModel model) {
        for (String id : model.rememberedIds()) {
            byte[] row = store(streams, StoreNames.PRODUCTS).get(RowKeys.product(new ProductId(id)));
            if (row == null || ProductRow.versionOf(row) != model.rememberedVersion(id)) {
                return false;
            }
        }
        return true;
    }

    /** Every key and value of both views, per partition: "store/partition/hex key" → hex value. */
    private static Map<String, String> snapshot(KafkaStreams streams) {
        Map<String, String> out = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        for (String name : VIEWS) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                ReadOnlyKeyValueStore<Bytes, byte[]> store = streams.store(StoreQueryParameters
                        .fromNameAndType(name, QueryableStoreTypes.<Bytes, byte[]>keyValueStore())
                        .withPartition(partition));
                try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                    while (it.hasNext()) {
                        KeyValue<Bytes, byte[]> kv = it.next();
                        out.put(name + "/" + partition + "/" + hex.formatHex(kv.key.get()), hex.formatHex(kv.value));
                    }
                }
            }
        }
        return out;
    }

    private static ReadOnlyKeyValueStore<Bytes, byte[]> store(KafkaStreams streams, String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
    }
}
