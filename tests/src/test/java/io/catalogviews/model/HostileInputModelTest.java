package io.catalogviews.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.fuzz.HostileRecords;
import io.catalogviews.views.index.ViewLayout;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.internals.ListingEngine;
import io.catalogviews.views.listing.internals.NamespacedStore;
import io.catalogviews.views.product.ProductRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11: no record can stop ingestion or reach the stores. Thousands of hostile records (keys of control and
 * namespace bytes, invalid UTF-8, over-long and huge keys; tombstones, garbage, foreign framings, near-limit values,
 * events whose key or id is bad) are interleaved with an ordinary seeded history and applied to the production
 * topology under {@link org.apache.kafka.streams.TopologyTestDriver}. Afterwards the views equal the model of the
 * ordinary events alone, every hostile record is a dead letter with the contract's reason in input order, and
 * dead letters that would not fit the request size are cut with the truncation headers.
 */
class HostileInputModelTest {

    static final int PRODUCTS = 200;
    static final int EVENTS = 2_000;
    static final int HOSTILE = 3_000;
    /** A small request size, so that big hostile records have to be cut to fit. */
    static final int DEAD_LETTER_MAX_BYTES = 64 * 1024;

    private static final ListingEngine ENGINE = new ListingEngine();

    /** What one input record must produce on the dead-letter topic: its reason, or nothing. */
    private record Expected(String reason, HostileRecords.Hostile hostile) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261201L, 11L})
    void shouldKeepTheModelsViewsAndDeadLetterEveryHostileRecordWhenHostileRecordsAreInterleaved(long seed) {
        List<HistoryEvent> history = HistoryGenerator.generate(seed, PRODUCTS, EVENTS);
        List<HostileRecords.Hostile> hostile = new HostileRecords(seed, DEAD_LETTER_MAX_BYTES).next(HOSTILE);
        CatalogModel model = new CatalogModel();
        List<Expected> expected = new ArrayList<>();
        SplittableRandom interleave = new SplittableRandom(seed);
        try (DriverCatalog driver = new DriverCatalog(DEAD_LETTER_MAX_BYTES)) {
            int h = 0;
            int e = 0;
            while (h < hostile.size() || e < history.size()) {
                boolean takeHostile = e == history.size()
                        || (h < hostile.size() && interleave.nextInt(history.size() + hostile.size()) < hostile.size());
                if (takeHostile) {
                    HostileRecords.Hostile record = hostile.get(h++);
                    driver.pipe(record.key(), record.value());
                    if (record.deadLettered()) {
                        expected.add(new Expected(record.expectedReason(), record));
                    }
                } else {
                    HistoryEvent event = history.get(e++);
                    driver.apply(event);
                    if (model.apply(event) == CatalogModel.Outcome.DEAD_LETTERED) {
                        expected.add(new Expected("unknown_product", null));
                    }
                }
            }

            List<TestRecord<byte[], byte[]>> letters = driver.deadLetters();
            System.out.printf("hostile input (seed %d): %d ordinary events, %d hostile records %s, %d dead letters, "
                            + "%d cut to fit%n", seed, history.size(), hostile.size(),
                    HostileRecords.countByReason(hostile), letters.size(),
                    letters.stream().filter(l -> header(l, "dlq.truncated") != null).count());

            assertThat(letters.stream().map(l -> header(l, "dlq.reason")).toList())
                    .as("dlq.reason of every dead letter, in input order")
                    .containsExactlyElementsOf(expected.stream().map(Expected::reason).toList());
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < letters.size(); i++) {
                String problem = cutOrKept(letters.get(i), expected.get(i).hostile());
                if (problem != null) {
                    problems.add("dead letter " + i + " (" + expected.get(i).hostile() + "): " + problem);
                }
            }
            assertThat(problems).as("dead letters keep the original bytes, or are cut with the headers").isEmpty();
            assertThat(letters).as("some dead letters had to be cut").anyMatch(l -> header(l, "dlq.truncated") != null);

            assertThat(productViewDifferences(driver, model)).as("product view vs the ordinary events' model").isEmpty();
            assertThat(categoryScopeDifferences(driver, model)).as("category scopes vs the model").isEmpty();
            assertThat(ENGINE.categories(NamespacedStore.categoryFacets(driver.products())))
                    .as("category counters (the facet namespace a 03 00 key once reached)")
                    .containsExactlyElementsOf(model.categories().stream()
                            .map(c -> new CategoryCount(c.category(), c.count())).toList());
        }
    }

    /** Null when the letter keeps the record's key and value, or is cut as the contract says; else the problem. */
    private static String cutOrKept(TestRecord<byte[], byte[]> letter, HostileRecords.Hostile original) {
        if (original == null) {
            return null; // an ordinary event's dead letter: DeadLettersTest covers its bytes
        }
        String detail = header(letter, "dlq.detail");
        if (detail == null || detail.getBytes(StandardCharsets.UTF_8).length > 1024) {
            return "dlq.detail missing or over 1 024 bytes";
        }
        if (header(letter, "dlq.truncated") == null) {
            return Arrays.equals(letter.key(), original.key()) && Arrays.equals(letter.value(), original.value())
                    ? null : "not marked truncated, yet its key or value differs from the record's";
        }
        if (original.size() + 1024 < DEAD_LETTER_MAX_BYTES / 2) {
            return "cut although the record is small (" + original.size() + " bytes)";
        }
        if (!String.valueOf(original.key() == null ? 0 : original.key().length).equals(header(letter, "dlq.original-key-bytes"))
                || !String.valueOf(original.value() == null ? 0 : original.value().length)
                .equals(header(letter, "dlq.original-value-bytes"))) {
            return "dlq.original-*-bytes do not give the record's sizes";
        }
        if (!Arrays.equals(letter.key(), prefix(original.key())) || !Arrays.equals(letter.value(), prefix(original.value()))) {
            return "key and value are not the record's first 1 024 bytes";
        }
        return null;
    }

    private static byte[] prefix(byte[] bytes) {
        return bytes == null ? null : Arrays.copyOf(bytes, Math.min(bytes.length, 1024));
    }

    /** Every row of the product view is a remembered id of the model, as the model has it, and nothing else. */
    private static List<String> productViewDifferences(DriverCatalog driver, CatalogModel model) {
        List<String> problems = new ArrayList<>();
        Map<String, byte[]> rows = rows(driver.products());
        for (String id : model.rememberedIds()) {
            byte[] raw = rows.remove(id);
            ModelProduct expected = model.product(id).orElse(null);
            if (raw == null) {
                problems.add(id + ": no row");
                continue;
            }
            ProductRow row = ProductRow.decode(raw);
            String diff = expected == null
                    ? (row.deleted() && row.version() == model.rememberedVersion(id) ? null : id + ": expected a deletion marker, was " + row)
                    : row.deleted() ? id + ": deleted at v" + row.version() : ProductJsonCheck.difference(expected, row.json());
            if (diff != null) {
                problems.add(diff);
            }
        }
        rows.keySet().forEach(id -> problems.add("the view holds a row the model does not remember: " + id));
        return problems;
    }

    /**
     * The category scopes list exactly the model's (category, product) pairs, each with the JSON of the model's
     * version (which the product view's check compares field by field).
     */
    private static List<String> categoryScopeDifferences(DriverCatalog driver, CatalogModel model) {
        Map<String, Long> expected = new TreeMap<>();
        for (ModelProduct p : model.products()) {
            p.categories().forEach(c -> expected.put(c + " " + p.id(), p.version()));
        }
        Map<String, Long> actual = new TreeMap<>();
        CategoryScopes.listed(driver.products()).forEach((pair, json) ->
                actual.put(pair, versionOf(json)));
        List<String> problems = new ArrayList<>();
        if (!expected.equals(actual)) {
            Map<String, Long> missing = new TreeMap<>(expected);
            actual.forEach(missing::remove);
            Map<String, Long> extra = new TreeMap<>(actual);
            expected.forEach(extra::remove);
            problems.add("missing " + missing + ", extra or different " + extra);
        }
        return problems;
    }

    /** The {@code version} field of a product's JSON. */
    private static long versionOf(byte[] json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get("version").asLong();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The rows (not the derived entries) of a view store, by key text. */
    private static Map<String, byte[]> rows(KeyValueStore<Bytes, byte[]> store) {
        Map<String, byte[]> rows = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (ViewLayout.isRowKey(kv.key.get())) {
                    rows.put(new String(kv.key.get(), StandardCharsets.UTF_8), kv.value);
                }
            }
        }
        return rows;
    }

    private static String header(TestRecord<byte[], byte[]> letter, String key) {
        Header header = letter.headers().lastHeader(key);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
