package io.catalogviews.views.store;

import io.catalogviews.views.index.ViewLayout;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

import static org.assertj.core.api.Assertions.assertThat;

/** The view-store contract on RocksDB, as the service runs it. */
class RocksDbViewStoreTest extends ViewStoreContractTest {

    @Override
    KeyValueBytesStoreSupplier productView(String name) {
        return ViewStores.products(name);
    }

    /**
     * The contract tests above run with index entries written straight into the transaction's batch only while this
     * Kafka Streams version has the internals that path reaches; after an upgrade that moves them, the store falls
     * back to the slower staging and this test says so.
     */
    @Test
    void shouldReachTheTransactionBatchWhenRunOnThisKafkaStreamsVersion() {
        assertThat(UnindexedBatchWrites.supported())
                .as("Kafka Streams' RocksDBStore.dbAccessor, TransactionalDBAccessor.buffer and "
                        + "RocksDBTransactionBuffer.cfHandle/writeBatch are reachable")
                .isTrue();
    }

    /**
     * Idle compaction reaches the store's RocksDB instance through Kafka Streams' fields: on this version it must find
     * the partition, and what the store serves after a flush and a compaction to one run must be what it served
     * before, rows and derived entries alike, also after a second round of changes and deletes. A stopped
     * application's partition leaves the registry, so nothing compacts a closed RocksDB instance.
     */
    @Test
    void shouldServeTheSameEntriesFromOneSortedRunWhenAnIdlePartitionIsCompacted() {
        assertThat(PartitionCompaction.supported()).as("Kafka Streams' RocksDBStore.db, .cfAccessor and "
                + "SingleColumnFamilyAccessor.columnFamily are reachable").isTrue();
        IdleCompactions compactions = IdleCompactions.unscheduled(Duration.ofMillis(1));
        KafkaStreams app = start(Map.of(IdleCompactions.CONFIG, compactions));
        send("put p-1 1 500", "put p-2 1 700", "commit");
        awaitProcessed();
        awaitCommitted("two rows committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1", "p-2"));
        await().alias("the store's partition registered for idle compaction").atMost(Duration.ofSeconds(30))
                .until(() -> compactions.partitions(STORE), n -> n == 1);
        Map<String, byte[]> first = contents(app);

        compactions.compactAllNow(STORE);

        assertThat(compactions.sortedRuns(STORE)).as("sorted runs after the first compaction").isEqualTo(1);
        assertThat(contents(app)).as("entries after the first compaction").usingRecursiveComparison()
                .isEqualTo(first);

        send("put p-1 2 900", "delete p-2", "put p-3 1 300", "commit");
        awaitProcessed();
        awaitCommitted("the second round committed", () -> assertThat(rows(app)).containsOnlyKeys("p-1", "p-3"));
        Map<String, byte[]> second = contents(app);

        compactions.compactAllNow(STORE);

        assertThat(compactions.sortedRuns(STORE)).as("sorted runs after the second compaction").isEqualTo(1);
        assertThat(contents(app)).as("entries after the second compaction").usingRecursiveComparison()
                .isEqualTo(second);
        assertThat(compactions.compactions(STORE)).as("compactions counted").isEqualTo(2);

        stop(app);

        assertThat(compactions.partitions(STORE)).as("partitions registered once the application stopped").isZero();
        assertThat(compactions.sortedRuns(STORE)).as("sorted runs counted once the application stopped").isZero();
    }

    /**
     * What a rebuild interrupted while deriving leaves behind (a crash after some entries were written): the marker,
     * entries missing, and an entry of a version the row no longer has. The next start finds the marker and derives
     * the entries again from the rows, so the store holds exactly what it held before.
     */
    @Test
    void shouldDeriveTheEntriesAgainWhenARebuildWasInterrupted() throws RocksDBException {
        Path stateDir = newStateDir();
        KafkaStreams app = start(0, new RowsFirstRebuilds(), stateDir);
        for (int i = 0; i < 20; i++) {
            send("put p-" + i + " 1 " + (100 + i * 11));
        }
        send("put p-2 2 7", "commit");
        awaitProcessed();
        awaitCommitted("20 rows committed", () -> assertThat(rows(app)).hasSize(20));
        Map<String, byte[]> original = contents(app);
        stop(app);

        Path db = stateDir.resolve(applicationId()).resolve("0_0").resolve("rocksdb").resolve("contract-view");
        interruptRebuild(db);

        RowsFirstRebuilds rebuilds = new RowsFirstRebuilds();
        KafkaStreams again = start(0, rebuilds, stateDir);
        await().alias("the interrupted rebuild is finished").atMost(Duration.ofSeconds(60))
                .until(rebuilds::rebuilt, n -> n == 1);
        await().alias("the store is readable again").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(contents(again)).as("rows and derived entries after the repair")
                        .usingRecursiveComparison().isEqualTo(original));
    }

    /**
     * A rebuild derives its rows' entries in batches of {@link DerivedEntriesStore#DERIVED_RECORDS_PER_BATCH} records;
     * a row's counters are read back by later rows, across batches. A catalog that needs several batches must come
     * out with the entries and counters the live writes gave it.
     */
    @Test
    void shouldDeriveWhatTheLiveWritesDidWhenARebuildSpansSeveralBatches() {
        int products = 2_000; // about 24 derived records each (6 + 2 × 6 index entries, 6 counter writes)
        Path liveStateDir = newStateDir();
        KafkaStreams app = start(0, new RowsFirstRebuilds(), liveStateDir);
        for (int i = 0; i < products; i++) {
            send("put p-" + i + " 1 " + (100 + i * 7 % 997) + " c" + (i % 5) + ",c" + (i % 7 + 5));
        }
        send("commit");
        awaitProcessed();
        awaitCommitted(products + " rows committed", () -> assertThat(rows(app)).hasSize(products));
        Map<String, String> original = hex(contents(app));
        assertThat(original.size() - products).as("derived entries, more than one batch's worth")
                .isGreaterThan(DerivedEntriesStore.DERIVED_RECORDS_PER_BATCH);
        stop(app);

        RowsFirstRebuilds rebuilds = new RowsFirstRebuilds();
        Path rebuiltStateDir = newStateDir();
        KafkaStreams rebuilt = start(0, rebuilds, rebuiltStateDir);
        await().alias("the rebuild from the changelog is finished").atMost(Duration.ofSeconds(120))
                .until(rebuilds::rebuilt, n -> n == 1);
        await().alias("the rebuilt store is readable").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(hex(contents(rebuilt))).as("rows and derived entries after the rebuild")
                        .isEqualTo(original));
        // A rebuild fills larger memtables; live writes afterwards must get the configured ones again.
        assertThat(writeBufferSize(rebuiltStateDir)).as("memtable size of the rebuilt store after its rebuild")
                .isEqualTo(writeBufferSize(liveStateDir))
                .isNotEqualTo(Long.toString(DerivedEntriesStore.REBUILD_WRITE_BUFFER_BYTES));
    }

    /** {@code write_buffer_size} in the newest OPTIONS file RocksDB wrote for the store (at open and at each change). */
    private static String writeBufferSize(Path stateDir) {
        try (Stream<Path> files = Files.walk(stateDir)) {
            String prefix = "OPTIONS-";
            Path newest = files.filter(f -> f.getFileName().toString().matches(prefix + "\\d+"))
                    .filter(f -> f.toString().contains(STORE))
                    .max(Comparator.comparingLong(f -> Long.parseLong(
                            f.getFileName().toString().substring(prefix.length()))))
                    .orElseThrow(() -> new AssertionError("no OPTIONS file of store " + STORE + " under " + stateDir));
            return Files.readAllLines(newest).stream().map(String::trim)
                    .filter(line -> line.startsWith("write_buffer_size="))
                    .map(line -> line.substring("write_buffer_size=".length())).findFirst()
                    .orElseThrow(() -> new AssertionError("no write_buffer_size in " + newest));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Values as hex, so that tens of thousands of entries compare in milliseconds (recursively: over a minute). */
    private static Map<String, String> hex(Map<String, byte[]> contents) {
        Map<String, String> out = new TreeMap<>();
        contents.forEach((key, value) -> out.put(key, HexFormat.of().formatHex(value)));
        return out;
    }

    /**
     * A store written by a release that kept category listings in a store of their own has rows and whole-catalog
     * entries but no category scope: the next start derives every entry again, so that it holds what this release
     * would have written, category scopes included.
     */
    @Test
    void shouldDeriveTheCategoryScopesWhenAStoreOfTheOlderLayoutIsOpened() throws RocksDBException {
        Path stateDir = newStateDir();
        KafkaStreams app = start(0, new RowsFirstRebuilds(), stateDir);
        for (int i = 0; i < 20; i++) {
            send("put p-" + i + " 1 " + (100 + i * 11) + " phones,c" + (i % 3));
        }
        send("commit");
        awaitProcessed();
        awaitCommitted("20 rows committed", () -> assertThat(rows(app)).hasSize(20));
        Map<String, byte[]> original = contents(app);
        stop(app);

        Path db = stateDir.resolve(applicationId()).resolve("0_0").resolve("rocksdb").resolve("contract-view");
        assertThat(deleteCategoryScopes(db)).as("category scope entries an older release would not have").isPositive();

        RowsFirstRebuilds rebuilds = new RowsFirstRebuilds();
        KafkaStreams again = start(0, rebuilds, stateDir);
        await().alias("the older layout is derived again").atMost(Duration.ofSeconds(60))
                .until(rebuilds::rebuilt, n -> n == 1);
        await().alias("the store is readable again").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(contents(again)).as("rows and derived entries after the upgrade")
                        .usingRecursiveComparison().isEqualTo(original));
    }

    /** Deletes every key of the category scopes' namespaces, as a store of the older layout lacks them. */
    private static int deleteCategoryScopes(Path path) throws RocksDBException {
        return onClosedStore(path, (rocksDb, data) -> {
            List<byte[]> scoped = new ArrayList<>();
            try (RocksIterator it = rocksDb.newIterator(data)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (key[0] == ViewLayout.CATEGORY_INDEX || key[0] == ViewLayout.CATEGORY_FACETS) {
                        scoped.add(key);
                    }
                }
            }
            for (byte[] key : scoped) {
                rocksDb.delete(data, key);
            }
            return scoped.size();
        });
    }

    /** Work on a store's RocksDB instance while Kafka Streams has it closed: the instance and its data family. */
    @FunctionalInterface
    private interface StoreSurgery<T> {
        T apply(RocksDB rocksDb, ColumnFamilyHandle data) throws RocksDBException;
    }

    private static <T> T onClosedStore(Path path, StoreSurgery<T> surgery) throws RocksDBException {
        List<ColumnFamilyDescriptor> families = new ArrayList<>();
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (Options options = new Options()) {
            for (byte[] name : RocksDB.listColumnFamilies(options, path.toString())) {
                families.add(new ColumnFamilyDescriptor(name));
            }
        }
        try (DBOptions options = new DBOptions(); RocksDB rocksDb = RocksDB.open(options, path.toString(), families, handles)) {
            try {
                return surgery.apply(rocksDb, handles.get(indexOf(families, RocksDB.DEFAULT_COLUMN_FAMILY)));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    /**
     * A standby whose copy a crash left in the middle of a rebuild (the marker, entries missing, an entry of no row)
     * is never told of a restore: it finds the marker when it replays its next batch, derives every entry of its rows
     * first, and then holds what the active holds.
     */
    @Test
    void shouldRepairAnInterruptedRebuildWhenAStandbyReplaysItsNextBatch() throws RocksDBException {
        Path firstDir = newStateDir();
        Path secondDir = newStateDir();
        KafkaStreams first = start(1, new RowsFirstRebuilds(), firstDir);
        KafkaStreams second = start(1, new RowsFirstRebuilds(), secondDir);
        await().alias("both instances run").atMost(Duration.ofSeconds(60))
                .until(() -> first.state() == KafkaStreams.State.RUNNING && second.state() == KafkaStreams.State.RUNNING);
        for (int i = 0; i < 20; i++) {
            send("put p-" + i + " 1 " + (100 + i * 11));
        }
        send("commit");
        awaitProcessed();
        KafkaStreams active = hasActive(first) ? first : second;
        KafkaStreams standby = active == first ? second : first;
        Path standbyDir = standby == first ? firstDir : secondDir;
        awaitCommitted("20 rows committed", () -> assertThat(rows(active)).hasSize(20));
        Map<String, byte[]> committed = contents(active);
        await().alias("the standby caught up").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(staleContents(standby)).usingRecursiveComparison().isEqualTo(committed));
        stop(standby);
        interruptRebuild(standbyDir.resolve(applicationId()).resolve("0_0").resolve("rocksdb").resolve("contract-view"));

        KafkaStreams restarted = start(1, new RowsFirstRebuilds(), standbyDir);
        await().alias("the restarted instance runs").atMost(Duration.ofSeconds(60))
                .until(() -> restarted.state() == KafkaStreams.State.RUNNING);
        assertThat(hasActive(restarted)).as("the restarted instance holds the standby, not the active").isFalse();
        send("put p-20 1 321", "put p-3 2 99", "commit");
        awaitProcessed();
        awaitCommitted("21 rows committed", () -> assertThat(rows(active)).hasSize(21));
        Map<String, byte[]> expected = contents(active);
        await().alias("the standby derived its entries again and caught up").atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(staleContents(restarted)).usingRecursiveComparison().isEqualTo(expected));
    }

    /** Puts the marker, deletes the first index entry and every facet counter, adds an index entry of no row. */
    private static void interruptRebuild(Path path) throws RocksDBException {
        onClosedStore(path, (rocksDb, data) -> {
            byte[] firstIndexEntry = null;
            List<byte[]> counters = new ArrayList<>();
            try (RocksIterator it = rocksDb.newIterator(data)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (key[0] == ViewLayout.INDEX && firstIndexEntry == null) {
                        firstIndexEntry = key;
                    } else if (key[0] == ViewLayout.FACETS) {
                        counters.add(key);
                    }
                }
            }
            assertThat(firstIndexEntry).as("an index entry in the store").isNotNull();
            assertThat(counters).as("facet counters in the store").isNotEmpty();
            rocksDb.delete(data, firstIndexEntry);
            for (byte[] counter : counters) {
                rocksDb.delete(data, counter);
            }
            byte[] stale = Arrays.copyOf(firstIndexEntry, firstIndexEntry.length + 1);
            stale[stale.length - 1] = 'x';
            rocksDb.put(data, stale, "a version the row no longer has".getBytes(StandardCharsets.UTF_8));
            rocksDb.put(data, new byte[] {ViewLayout.REBUILD_MARKER}, new byte[] {1});
            return null;
        });
    }

    private static int indexOf(List<ColumnFamilyDescriptor> families, byte[] name) {
        for (int i = 0; i < families.size(); i++) {
            if (Arrays.equals(families.get(i).getName(), name)) {
                return i;
            }
        }
        throw new IllegalStateException("no column family " + new String(name, StandardCharsets.UTF_8));
    }
}
