package io.catalogviews.views.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.catalogviews.broker.EmbeddedKafkaBroker;
import io.catalogviews.events.Product;
import io.catalogviews.events.codec.ProductEvents;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.IndexKind;
import io.catalogviews.views.index.IndexValue;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.ViewLayout;
import io.catalogviews.views.product.ProductJson;
import io.catalogviews.views.product.ProductListing;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.product.ProductState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of a view store ({@link ViewStores}): rows in, index and facet entries derived beside them, only
 * rows logged; every write of a record applied or none; interactive queries see committed state only; a restore
 * from the changelog and a standby rebuild the same bytes. Run for each store kind under a real Kafka Streams
 * application on a real broker, because what it checks — the restore callback it intercepts, the isolation level
 * the layers above pass down, the commit — lives in Kafka Streams' internals and must fail here on an upgrade
 * that changes them.
 *
 * <p>The application applies commands from a topic ({@code put id version price}, {@code delete id},
 * {@code corrupt id}, {@code commit}) and commits only when told to (commit interval of two minutes, longer than any test), so what is
 * committed is the test's choice.
 */
@Timeout(180)
abstract class ViewStoreContractTest {

    static final String STORE = "contract-view";
    private static final Instant AT = Instant.parse("2026-12-01T00:00:00Z");
    private static final Map<String, AtomicLong> PROCESSED = new ConcurrentHashMap<>();
    private static final Map<String, List<String>> FAILURES = new ConcurrentHashMap<>();
    private static EmbeddedKafkaBroker broker;

    private final List<KafkaStreams> apps = new ArrayList<>();
    private final List<Path> stateDirs = new ArrayList<>();
    private String applicationId;
    private String commands;
    private KafkaProducer<String, String> producer;
    private long sent;

    /** The store under test, as {@link ViewStores} builds it for the product view. */
    abstract KeyValueBytesStoreSupplier productView(String name);

    static synchronized String bootstrapServers() {
        if (broker == null) {
            try {
                broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Config.of(
                        Files.createTempDirectory(Path.of("target"), "contract-kafka-")).withPort(0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "contract-kafka-stop"));
        }
        return broker.bootstrapServers();
    }

    @BeforeEach
    void createTopic() throws Exception {
        applicationId = "contract-" + getClass().getSimpleName() + "-" + UUID.randomUUID().toString().substring(0, 8);
        commands = applicationId + "-commands";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(commands, 1, (short) 1))).all().get();
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        PROCESSED.put(applicationId, new AtomicLong());
        FAILURES.put(applicationId, new ArrayList<>());
    }

    @AfterEach
    void stop() {
        apps.forEach(KafkaStreams::close);
        producer.close();
        stateDirs.forEach(ViewStoreContractTest::deleteQuietly);
    }

    // ---- the contract

    @Test
    void shouldDeriveIndexAndFacetEntriesWhenRowsArePutAndRemoveThemWhenDeleted() {
        KafkaStreams app = start();
        send("put p-1 1 500", "put p-2 1 700", "commit");
        awaitProcessed();

        awaitCommitted("two rows committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1", "p-2"));
        assertThat(derived(app, ViewLayout.INDEX)).as("index entries of two products").isNotEmpty()
                .allSatisfy(key -> assertThat(key).satisfiesAnyOf(k -> assertThat(k).contains("p-1"),
                        k -> assertThat(k).contains("p-2")));
        assertThat(derived(app, ViewLayout.FACETS)).as("facet counters").isNotEmpty();

        send("delete p-1", "delete p-2", "commit");
        awaitProcessed();

        awaitCommitted("the deletes committed", () -> assertThat(rows(app)).isEmpty());
        assertThat(derived(app, ViewLayout.INDEX)).as("index entries after the deletes").isEmpty();
        assertThat(derived(app, ViewLayout.FACETS)).as("facet counters after the deletes").isEmpty();
    }

    @Test
    void shouldMoveIndexEntriesWhenARowChanges() {
        KafkaStreams app = start();
        send("put p-1 1 500", "commit");
        awaitProcessed();
        awaitCommitted("p-1 committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1"));
        List<String> before = derived(app, ViewLayout.INDEX);

        send("put p-1 2 900", "commit");
        awaitProcessed();

        awaitCommitted("the new price committed", () -> assertThat(derived(app, ViewLayout.INDEX))
                .hasSameSizeAs(before).isNotEqualTo(before));
    }

    @Test
    void shouldKeepTheLastWritesIndexEntriesWhenARowMovesAndMovesBackInOneTransaction() {
        KafkaStreams app = start();
        send("put p-1 1 500", "commit");
        awaitProcessed();
        awaitCommitted("p-1 committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1"));
        List<String> atFiveHundred = derived(app, ViewLayout.INDEX);

        // Within one transaction each entry at 500 is deleted, then written again: the write must win.
        send("put p-1 2 900", "put p-1 3 500", "commit");
        awaitProcessed();

        awaitCommitted("version 3 committed",
                () -> assertThat(ProductRow.decode(rows(app).get("p-1")).version()).isEqualTo(3));
        assertThat(derived(app, ViewLayout.INDEX)).as("index entries back at 500").isEqualTo(atFiveHundred);
    }

    @Test
    void shouldServeTheRowsJsonFromTheWholeCatalogsPriceEntryWhenARowIsWrittenAndChanged() {
        KafkaStreams app = start();
        send("put p-1 1 500", "commit");
        awaitProcessed();
        awaitCommitted("p-1 committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1"));
        byte[] first = ProductRow.servingJson(rows(app).get("p-1"));
        assertThat(wholeCatalogPriceJson(app, "p-1")).as("JSON in the price entry at 500").isEqualTo(first);

        send("put p-1 2 900", "commit");
        awaitProcessed();

        awaitCommitted("version 2 committed",
                () -> assertThat(ProductRow.decode(rows(app).get("p-1")).version()).isEqualTo(2));
        byte[] second = ProductRow.servingJson(rows(app).get("p-1"));
        assertThat(second).isNotEqualTo(first);
        assertThat(wholeCatalogPriceJson(app, "p-1")).as("JSON in the price entry at 900").isEqualTo(second);
    }

    /** Entries far larger than the ones before them, and small ones after those, are written whole. */
    @Test
    void shouldServeEachRowsWholeJsonWhenEntriesOfVeryDifferentSizesFollowEachOther() {
        KafkaStreams app = start();
        int[] nameLengths = {10, 70_000, 20, 200_000, 5};
        for (int i = 0; i < nameLengths.length; i++) {
            long version = i + 1;
            send("put p-1 " + version + " " + (500 + i) + " phones " + nameLengths[i], "commit");
            awaitProcessed();
            awaitCommitted("version " + version + " committed",
                    () -> assertThat(ProductRow.decode(rows(app).get("p-1")).version()).isEqualTo(version));
            byte[] json = ProductRow.servingJson(rows(app).get("p-1"));
            assertThat(json.length).as("JSON of version %d", version).isGreaterThan(nameLengths[i]);
            assertThat(wholeCatalogPriceJson(app, "p-1")).as("JSON in the price entry of version %d", version)
                    .isEqualTo(json);
        }
    }

    @Test
    void shouldListARowInEachOfItsCategoriesAndMoveItWhenItsCategoriesChange() {
        KafkaStreams app = start();
        send("put p-1 1 500 phones,tv", "put p-2 1 700 tv", "commit");
        awaitProcessed();
        awaitCommitted("two rows committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1", "p-2"));
        assertThat(categoryScopes(app, "p-1")).as("scopes listing p-1").containsExactlyInAnyOrder("phones", "tv");
        assertThat(categoryScopes(app, "p-2")).as("scopes listing p-2").containsExactly("tv");
        assertThat(derived(app, ViewLayout.CATEGORY_FACETS)).as("category counters")
                .anySatisfy(k -> assertThat(k).startsWith("\u0006phones\u0000"))
                .anySatisfy(k -> assertThat(k).startsWith("\u0006tv\u0000"));

        send("put p-1 2 500 tv,audio", "commit");
        awaitProcessed();

        awaitCommitted("p-1 moved", () -> assertThat(categoryScopes(app, "p-1")).as("scopes listing p-1 after the "
                + "move").containsExactlyInAnyOrder("tv", "audio"));
        assertThat(derived(app, ViewLayout.CATEGORY_FACETS)).as("counters of a category left empty")
                .noneSatisfy(k -> assertThat(k).startsWith("\u0006phones\u0000"));

        send("delete p-1", "delete p-2", "commit");
        awaitProcessed();

        awaitCommitted("the deletes committed", () -> assertThat(rows(app)).isEmpty());
        assertThat(derived(app, ViewLayout.CATEGORY_INDEX)).as("category entries after the deletes").isEmpty();
        assertThat(derived(app, ViewLayout.CATEGORY_FACETS)).as("category counters after the deletes").isEmpty();
    }

    @Test
    void shouldShowOnlyCommittedStateWhenReadByInteractiveQueries() {
        KafkaStreams app = start();
        send("put p-1 1 500", "commit");
        awaitProcessed();
        awaitCommitted("p-1 committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1"));
        Map<String, byte[]> committed = contents(app);

        send("put p-2 1 700", "put p-1 2 900", "delete p-1");
        awaitProcessed();

        assertThat(contents(app)).as("rows and derived entries while the transaction is open")
                .usingRecursiveComparison().isEqualTo(committed);

        send("commit");
        awaitProcessed();

        awaitCommitted("the transaction committed", () -> assertThat(rows(app)).containsOnlyKeys("p-2"));
    }

    @Test
    void shouldWriteNothingWhenARowsDerivationFails() {
        KafkaStreams app = start();
        send("put p-1 1 500", "commit");
        awaitProcessed();
        awaitCommitted("p-1 committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1"));
        Map<String, byte[]> before = contents(app);

        send("corrupt p-2", "corrupt p-1", "put p-9 1 1", "commit");
        awaitProcessed();
        awaitCommitted("the last put committed", () -> assertThat(rows(app)).containsKey("p-9"));
        send("delete p-9", "commit");
        awaitProcessed();
        awaitCommitted("p-9 deleted again", () -> assertThat(rows(app)).doesNotContainKey("p-9"));

        assertThat(FAILURES.get(applicationId)).as("derivations that failed").hasSize(2);
        assertThat(contents(app)).as("the store after two failed puts").usingRecursiveComparison().isEqualTo(before);
    }

    @Test
    void shouldRebuildTheSameBytesWhenRestoredFromTheChangelog() {
        KafkaStreams app = start();
        for (int i = 0; i < 50; i++) {
            send("put p-" + i + " 1 " + (100 + i * 7));
        }
        send("delete p-3", "put p-4 2 1", "commit");
        awaitProcessed();
        awaitCommitted("49 rows committed", () -> assertThat(rows(app)).hasSize(49));
        Map<String, byte[]> original = contents(app);

        // Leaving the group lets the restart take the partition at once instead of after the session timeout.
        app.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        apps.remove(app);
        deleteQuietly(stateDirs.remove(0));
        KafkaStreams restored = start();

        await().alias("the store is restored from its changelog").atMost(Duration.ofSeconds(60))
                .ignoreExceptions().untilAsserted(() -> assertThat(rows(restored)).hasSize(49));
        assertThat(contents(restored)).as("rows and derived entries after the restore")
                .usingRecursiveComparison().isEqualTo(original);
    }

    @Test
    void shouldRebuildTheSameBytesRowsFirstWhenAnEmptyStoreRestoresAHistoryOfVersions() {
        KafkaStreams app = start();
        for (int version = 1; version <= 3; version++) {
            for (int i = 0; i < 30; i++) {
                send("put p-" + i + " " + version + " " + (100 + i * 7 + version * 13));
            }
        }
        send("delete p-3", "delete p-5", "put p-5 4 1", "commit");
        awaitProcessed();
        awaitCommitted("29 rows committed", () -> assertThat(rows(app)).hasSize(29));
        Map<String, byte[]> original = contents(app);

        stop(app);
        deleteQuietly(stateDirs.remove(0));
        RowsFirstRebuilds rebuilds = new RowsFirstRebuilds();
        KafkaStreams restored = start(0, rebuilds, newStateDir());

        await().alias("the store is rebuilt from its changelog").atMost(Duration.ofSeconds(60))
                .ignoreExceptions().untilAsserted(() -> assertThat(rows(restored)).hasSize(29));
        assertThat(rebuilds.rebuilt()).as("store partitions rebuilt rows first").isEqualTo(1);
        assertThat(contents(restored)).as("rows and derived entries after the rows-first rebuild")
                .usingRecursiveComparison().isEqualTo(original);
    }

    @Test
    void shouldKeepAStandbyWithTheSameBytesWhenTheActiveCommits() {
        KafkaStreams first = start(1);
        KafkaStreams second = start(1);
        await().alias("both instances run").atMost(Duration.ofSeconds(60))
                .until(() -> first.state() == KafkaStreams.State.RUNNING && second.state() == KafkaStreams.State.RUNNING);
        for (int i = 0; i < 20; i++) {
            send("put p-" + i + " 1 " + (100 + i));
        }
        send("delete p-7", "commit");
        awaitProcessed();
        KafkaStreams active = hasActive(first) ? first : second;
        KafkaStreams standby = active == first ? second : first;
        awaitCommitted("19 rows committed", () -> assertThat(rows(active)).hasSize(19));
        Map<String, byte[]> expected = contents(active);

        await().alias("the standby caught up").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(staleContents(standby)).usingRecursiveComparison().isEqualTo(expected));
    }

    // ---- the application

    KafkaStreams start() {
        return start(0);
    }

    /** Stops {@code app} leaving the group, so that the next start takes the partition at once. */
    void stop(KafkaStreams app) {
        app.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        apps.remove(app);
    }

    String applicationId() {
        return applicationId;
    }

    private KafkaStreams start(int standbys) {
        return start(standbys, null, newStateDir());
    }

    Path newStateDir() {
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory(Path.of("target"), "contract-state-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stateDirs.add(stateDir);
        return stateDir;
    }

    /** An application on {@code stateDir}; with {@code rebuilds}, an empty store restores rows first. */
    KafkaStreams start(int standbys, RowsFirstRebuilds rebuilds, Path stateDir) {
        return start(standbys, rebuilds, stateDir, Map.of());
    }

    /** An application with {@code extra} Streams properties (registries the store finds in its configs). */
    KafkaStreams start(Map<String, Object> extra) {
        return start(0, null, newStateDir(), extra);
    }

    private KafkaStreams start(int standbys, RowsFirstRebuilds rebuilds, Path stateDir, Map<String, Object> extra) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(productView(STORE), Serdes.Bytes(), Serdes.ByteArray())
                .withCachingDisabled());
        String app = applicationId;
        builder.stream(commands, Consumed.with(Serdes.String(), Serdes.String()))
                .process(() -> new Commands(app), STORE);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true");
        p.put(StreamsConfig.DEFAULT_INTERACTIVE_QUERY_ISOLATION_LEVEL_CONFIG, "READ_COMMITTED");
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(Duration.ofMinutes(2).toMillis()));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                Long.toString(Duration.ofMinutes(3).toMillis()));
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(standbys));
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:" + (10_000 + apps.size()));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        if (rebuilds != null) {
            p.put(RowsFirstRebuilds.CONFIG, rebuilds);
        }
        p.putAll(extra);
        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        if (rebuilds != null) {
            streams.setGlobalStateRestoreListener(rebuilds);
        }
        streams.start();
        apps.add(streams);
        return streams;
    }

    void send(String... lines) {
        for (String line : lines) {
            producer.send(new ProducerRecord<>(commands, "k", line));
            sent++;
        }
        producer.flush();
    }

    void awaitProcessed() {
        long target = sent;
        await().alias("the application processed " + target + " commands").atMost(Duration.ofSeconds(90))
                .until(() -> PROCESSED.get(applicationId).get() >= target);
    }

    /** Waits for a commit's results: they show once the commit requested by a command is done. */
    static void awaitCommitted(String what, Runnable assertion) {
        await().alias(what).atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(assertion::run);
    }

    static boolean hasActive(KafkaStreams streams) {
        return streams.metadataForLocalThreads().stream().anyMatch(t -> !t.activeTasks().isEmpty());
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(KafkaStreams app, boolean stale) {
        StoreQueryParameters<ReadOnlyKeyValueStore<Bytes, byte[]>> q =
                StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.keyValueStore());
        return app.store(stale ? q.enableStaleStores() : q);
    }

    Map<String, byte[]> contents(KafkaStreams app) {
        return contents(store(app, false));
    }

    Map<String, byte[]> staleContents(KafkaStreams app) {
        return contents(store(app, true));
    }

    /** Every entry, by key (printable), rows and derived entries alike. */
    private static Map<String, byte[]> contents(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        Map<String, byte[]> out = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                out.put(kv.key.toString(), kv.value);
            }
        }
        return out;
    }

    Map<String, byte[]> rows(KafkaStreams app) {
        Map<String, byte[]> rows = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store(app, false).all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (ViewLayout.isRowKey(kv.key.get())) {
                    rows.put(new String(kv.key.get(), java.nio.charset.StandardCharsets.US_ASCII), kv.value);
                }
            }
        }
        return rows;
    }

    /** The serving JSON of the whole-catalog plain price entry of {@code id}'s committed row (null if plain). */
    private byte[] wholeCatalogPriceJson(KafkaStreams app, String id) {
        ListingEntry e = ProductListing.entryOfRow(rows(app).get(id));
        byte[] prefix = IndexKeys.prefix(new IndexKind(SortOrder.PRICE, false), null, e.brand());
        Bytes key = ViewLayout.inNamespace(ViewLayout.INDEX, IndexKeys.key(prefix, e.sortValue(SortOrder.PRICE), id));
        byte[] value = store(app, false).get(key);
        assertThat(value).as("whole-catalog price entry of %s", id).isNotNull();
        return IndexValue.servingJson(value);
    }

    /** The categories whose scope lists {@code id} (by its plain {@code price} entry). */
    private Set<String> categoryScopes(KafkaStreams app, String id) {
        Set<String> categories = new TreeSet<>();
        byte tag = new IndexKind(SortOrder.PRICE, false).tag();
        try (KeyValueIterator<Bytes, byte[]> it = store(app, false).all()) {
            while (it.hasNext()) {
                byte[] key = it.next().key.get();
                if (key.length > 2 && key[0] == ViewLayout.CATEGORY_INDEX && key[1] == tag) {
                    // Without the namespace byte the prefix (tag, category, 0x00) ends at the terminator's index.
                    int prefixLength = IndexKeys.categoryEnd(key, 1);
                    if (IndexKeys.idOf(Arrays.copyOfRange(key, 1, key.length), prefixLength).equals(id)) {
                        categories.add(IndexKeys.categoryOf(key, 1));
                    }
                }
            }
        }
        return categories;
    }

    /** Keys of one derived namespace, printable. */
    private List<String> derived(KafkaStreams app, byte namespace) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store(app, false).all()) {
            while (it.hasNext()) {
                byte[] key = it.next().key.get();
                if (key.length > 0 && key[0] == namespace) {
                    keys.add(new String(key, java.nio.charset.StandardCharsets.ISO_8859_1));
                }
            }
        }
        return keys;
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory
        }
    }

    /** Applies the test's commands to the store; commits only when told to. */
    static final class Commands implements Processor<String, String, Void, Void> {
        private final String app;
        private ProcessorContext<Void, Void> context;
        private KeyValueStore<Bytes, byte[]> store;

        Commands(String app) {
            this.app = app;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> record) {
            String[] words = record.value().split(" ");
            switch (words[0]) {
                case "put" -> store.put(key(words[1]), row(words[1], Long.parseLong(words[2]), Long.parseLong(words[3]),
                        words.length > 4 ? List.of(words[4].split(",")) : List.of("phones"),
                        words.length > 5 ? Integer.parseInt(words[5]) : 0));
                case "delete" -> store.delete(key(words[1]));
                case "corrupt" -> {
                    byte[] row = ProductRow.live(9, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}).encode();
                    try {
                        store.put(key(words[1]), row);
                    } catch (RuntimeException e) {
                        FAILURES.get(app).add(e.toString());
                    }
                }
                case "commit" -> {
                    context.commit();
                }
                default -> throw new IllegalArgumentException("unknown command " + record.value());
            }
            PROCESSED.get(app).incrementAndGet();
        }

        @Override
        public void close() {
        }

        private static Bytes key(String id) {
            return RowKeys.product(new ProductId(id));
        }

        /** A row of product {@code id}; a {@code nameLength} above 0 gives it a name of that many characters. */
        private static byte[] row(String id, long version, long price, List<String> categories, int nameLength) {
            Product.Builder builder = Product.newBuilder(ProductEvents.product(id, "acme", categories.get(0), price, 1,
                    AT)).setCategories(categories);
            if (nameLength > 0) {
                builder.setName(Character.toString('a' + (int) (version % 26)).repeat(nameLength));
            }
            Product product = builder.build();
            return ProductRow.live(version, ProductJson.render(product, version), ProductState.encode(product)).encode();
        }
    }
}
