package io.catalogviews.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.IndexValue;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.listing.internals.NamespacedStore;
import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.product.ProductRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The production topology under a {@link TopologyTestDriver} configured like the service (exactly-once v2):
 * pipes events and raw records into {@code catalog.product-events}, reads the product view straight from its
 * store and the dead letters from {@code catalog.product-events.dlq}.
 *
 * <p>The driver feeds every record to partition 0 of the input topic, so with one input partition every key is
 * on its right partition, and with more some keys are not.
 */
final class TopologyFixture implements AutoCloseable {

    static final String INPUT = TopologySettings.DEFAULT_INPUT_TOPIC;
    static final String DLQ = TopologySettings.DEFAULT_DLQ_TOPIC;
    /** The driver's wall clock at start, which deletion markers record as their deletion time. */
    static final Instant WALL_CLOCK_START = Instant.parse("2026-11-30T12:00:00Z");

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ProductEventCodec CODEC = ProductEventCodec.create();

    final EventCounters counters = new EventCounters();
    final List<String> outcomes = new ArrayList<>();
    private final Path stateDir;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> input;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private long nextOffset;

    /** The contract's defaults with one input partition, so that no record is on the wrong partition. */
    static TopologyFixture start() {
        return start(TopologySettings.defaults(1));
    }

    static TopologyFixture withInputPartitions(int partitions) {
        return start(TopologySettings.defaults(partitions));
    }

    static TopologyFixture withDeletedRetention(Duration retention, Duration purgeInterval) {
        return start(TopologySettings.defaults(1).withDeletedRetention(retention, purgeInterval));
    }

    static TopologyFixture withDeadLetterMaxBytes(int maxBytes) {
        return start(TopologySettings.defaults(1).withDeadLetterMaxBytes(maxBytes));
    }

    private static TopologyFixture start(TopologySettings settings) {
        return new TopologyFixture(settings);
    }

    private TopologyFixture(TopologySettings settings) {
        try {
            stateDir = Files.createTempDirectory("catalog-views-topology-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "catalog-views-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        EventOutcomeListener listener = new RecordingListener(counters, outcomes);
        TopologySettings withListener = settings.withOutcomes(listener);
        props.putAll(ErrorHandling.properties(withListener));
        driver = new TopologyTestDriver(CatalogTopology.build(withListener), props, WALL_CLOCK_START);
        input = driver.createInputTopic(settings.inputTopic(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(settings.deadLetterTopic(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    // ---- input

    /** Publishes {@code event} keyed by its productId, in Avro single-object encoding. */
    long send(ProductEvent event) {
        return send(event.getProductId(), event);
    }

    /** Publishes {@code event} under another key, in Avro single-object encoding. */
    long send(String key, ProductEvent event) {
        return pipe(utf8(key), CODEC.encodeSingleObject(event));
    }

    /** Publishes {@code event} keyed by its productId, in Avro JSON encoding. */
    long sendAsJson(ProductEvent event) {
        return pipe(utf8(event.getProductId()), utf8(CODEC.encodeJson(event)));
    }

    long tombstone(String key) {
        return pipe(utf8(key), null);
    }

    /** Pipes a raw record and answers its offset in the input topic. */
    long pipe(byte[] key, byte[] value, Header... headers) {
        input.pipeInput(new TestRecord<>(key, value, new RecordHeaders(headers), WALL_CLOCK_START));
        return nextOffset++;
    }

    static byte[] encode(ProductEvent event) {
        return CODEC.encodeSingleObject(event);
    }

    /** An id whose key murmur2 places on partition 0 of {@code partitions}, where the driver feeds records. */
    static String idOnTheDriverPartition(int partitions) {
        return firstId(partitions, true);
    }

    /** An id whose key murmur2 places on a partition other than 0 of {@code partitions}. */
    static String idOffTheDriverPartition(int partitions) {
        return firstId(partitions, false);
    }

    private static String firstId(int partitions, boolean onPartitionZero) {
        for (int i = 0; ; i++) {
            String id = "p-" + i;
            if ((BuiltInPartitioner.partitionForKey(utf8(id), partitions) == 0) == onPartitionZero) {
                return id;
            }
        }
    }

    static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- the product view

    /** The raw row stored for {@code id}, or null. */
    byte[] rawRow(String id) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.PRODUCTS);
        // The raw key, for any id: a test may look for what the service must never have written.
        return store.get(Bytes.wrap(utf8(id)));
    }

    /**
     * Stores a row as an earlier release left it (through the view store, which derives its index entries, as a
     * restore from the changelog would).
     */
    void storeRow(String id, byte[] row) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.PRODUCTS);
        store.put(RowKeys.product(new ProductId(id)), row);
    }

    /**
     * The price {@code id} is listed at in {@code category} (its entry in the category's {@code price} index, in the
     * product view's category scopes), or null when the category does not list it.
     */
    Long categoryPrice(String category, String id) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.PRODUCTS);
        byte[] prefix = IndexKeys.prefix(new IndexKind(SortOrder.PRICE, false), category, null);
        NamespacedStore index = NamespacedStore.index(store, category);
        try (KeyValueIterator<Bytes, byte[]> it = index.range(IndexKeys.lowerBound(prefix, 0),
                IndexKeys.upperBound(prefix, -1L))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> entry = it.next();
                if (IndexKeys.idOf(entry.key.get(), prefix.length).equals(id)) {
                    return IndexValue.priceCents(entry.value);
                }
            }
        }
        return null;
    }

    /** The decoded row stored for {@code id}, or null. */
    ProductRow row(String id) {
        byte[] raw = rawRow(id);
        return raw == null ? null : ProductRow.decode(raw);
    }

    /** The serving JSON of a live row; fails when the view does not hold the product. */
    JsonNode json(String id) {
        ProductRow row = row(id);
        if (row == null || row.deleted()) {
            throw new AssertionError("the view does not hold a live '" + id + "' but " + row);
        }
        return parse(row.json());
    }

    static JsonNode parse(byte[] json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keys of the deletion index, in store order: 8-byte deletion time then product id. */
    List<Bytes> deletionIndex() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.PRODUCT_DELETIONS);
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            it.forEachRemaining((KeyValue<Bytes, byte[]> kv) -> keys.add(kv.key));
        }
        return keys;
    }

    // ---- dead letters

    /** Dead letters written since the last call. */
    List<TestRecord<byte[], byte[]>> deadLetters() {
        return deadLetters.readRecordsToList();
    }

    void advanceWallClock(Duration duration) {
        driver.advanceWallClockTime(duration);
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            try (Stream<Path> files = Files.walk(stateDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // best effort: the directory is a temporary one
            }
        }
    }

    /** Counts through {@link EventCounters} and records each outcome as a line, for assertions on the listener. */
    private record RecordingListener(EventCounters counters, List<String> lines) implements EventOutcomeListener {

        @Override
        public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
            counters.applied(kind, productId, version, occurredAtMs);
            lines.add("applied " + kind + " " + productId + " v" + version + " at " + occurredAtMs);
        }

        @Override
        public void stale(String productId, long version) {
            counters.stale(productId, version);
            lines.add("stale " + productId + " v" + version);
        }

        @Override
        public void deadLettered(DeadLetterReason reason) {
            counters.deadLettered(reason);
            lines.add("dead-lettered " + reason.wireName());
        }
    }
}
