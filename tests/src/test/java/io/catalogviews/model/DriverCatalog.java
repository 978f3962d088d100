package io.catalogviews.model;


import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.topology.CatalogTopology;
import io.catalogviews.topology.ErrorHandling;
import io.catalogviews.topology.ChangeKind;
import io.catalogviews.topology.DeadLetterReason;
import io.catalogviews.topology.EventOutcomeListener;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.internals.NamespacedStore;
import io.catalogviews.views.listing.internals.RowReader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The production topology under a {@link TopologyTestDriver} configured like the service (exactly-once v2, one
 * input partition, where the driver puts every record), fed with a generated history; gives its stores to the
 * listing engine and counts the outcomes it reports.
 */
public final class DriverCatalog implements AutoCloseable {

    private static final Instant WALL_CLOCK_START = Instant.parse("2026-11-30T12:00:00Z");
    private static final ProductEventCodec CODEC = ProductEventCodec.create();

    final Map<CatalogModel.Outcome, Long> outcomes = new EnumMap<>(CatalogModel.Outcome.class);
    final Map<DeadLetterReason, Long> deadLetterReasons = new EnumMap<>(DeadLetterReason.class);
    private final Path stateDir;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> input;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final List<TestRecord<byte[], byte[]>> deadLettersRead = new ArrayList<>();

    DriverCatalog() {
        this(TopologySettings.DEFAULT_DEAD_LETTER_MAX_BYTES);
    }

    /** With dead letters cut to fit {@code deadLetterMaxBytes}. */
    public DriverCatalog(int deadLetterMaxBytes) {
        try {
            stateDir = Files.createTempDirectory("catalog-views-model-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (CatalogModel.Outcome o : CatalogModel.Outcome.values()) {
            outcomes.put(o, 0L);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "catalog-views-model-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        TopologySettings settings = TopologySettings.defaults(1).withOutcomes(new Counting())
                .withDeadLetterMaxBytes(deadLetterMaxBytes);
        props.putAll(ErrorHandling.properties(settings));
        driver = new TopologyTestDriver(CatalogTopology.build(settings), props, WALL_CLOCK_START);
        input = driver.createInputTopic(settings.inputTopic(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(settings.deadLetterTopic(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    public void apply(HistoryEvent event) {
        byte[] key = event.productId().getBytes(StandardCharsets.UTF_8);
        ProductEvent avro = event.toAvro();
        byte[] value = avro == null ? null
                : event.json() ? CODEC.encodeJson(avro).getBytes(StandardCharsets.UTF_8)
                : CODEC.encodeSingleObject(avro);
        input.pipeInput(new TestRecord<>(key, value, WALL_CLOCK_START));
    }

    /** Pipes a raw record, as any producer could write it. */
    public void pipe(byte[] key, byte[] value) {
        input.pipeInput(new TestRecord<>(key, value, WALL_CLOCK_START));
    }

    /** Dead letters written to the topic so far. */
    long deadLettersWritten() {
        return deadLetters().size();
    }

    /** Every dead letter written so far, in order. */
    public List<TestRecord<byte[], byte[]>> deadLetters() {
        deadLettersRead.addAll(deadLetters.readRecordsToList());
        return List.copyOf(deadLettersRead);
    }

    public KeyValueStore<Bytes, byte[]> bytesStore(String name) {
        return driver.getKeyValueStore(name);
    }

    public KeyValueStore<Bytes, byte[]> products() {
        return driver.getKeyValueStore(StoreNames.PRODUCTS);
    }

    /** The index a listing of {@code categoryOrNull} reads (its scope in the product view). */
    ReadOnlyKeyValueStore<Bytes, byte[]> index(String categoryOrNull) {
        return NamespacedStore.index(products(), categoryOrNull);
    }

    /** The facet counters of {@code categoryOrNull}'s scope. */
    ReadOnlyKeyValueStore<Bytes, byte[]> facets(String categoryOrNull) {
        return NamespacedStore.facets(products(), categoryOrNull);
    }

    /** Where a listing of {@code categoryOrNull} finds the JSON of its items: the product rows, for every scope. */
    RowReader rows(String categoryOrNull) {
        return RowReader.productRows(products());
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            try (Stream<Path> files = Files.walk(stateDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // best effort: a temporary directory
            }
        }
    }

    private final class Counting implements EventOutcomeListener {
        @Override
        public void applied(ChangeKind kind, String productId, long version, long occurredAtMs) {
            outcomes.merge(CatalogModel.Outcome.APPLIED, 1L, Long::sum);
        }

        @Override
        public void stale(String productId, long version) {
            outcomes.merge(CatalogModel.Outcome.STALE, 1L, Long::sum);
        }

        @Override
        public void deadLettered(DeadLetterReason reason) {
            outcomes.merge(CatalogModel.Outcome.DEAD_LETTERED, 1L, Long::sum);
            deadLetterReasons.merge(reason, 1L, Long::sum);
        }
    }
}
