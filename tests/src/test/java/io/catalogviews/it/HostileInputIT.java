package io.catalogviews.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.events.codec.ProductEvents;
import io.catalogviews.fuzz.HostileRecords;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.model.HistoryGenerator;
import io.catalogviews.views.query.KeyPartitioner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 11 against a real broker: hostile records from a plain Kafka producer (the seeded generator of
 * {@link HostileRecords}, the two records of the issue — a {@code 03 00} tombstone and a 400 KB key with a 400 KB
 * productId) interleaved with an ordinary history. The service's producer request size is set to 300 000 bytes, so big
 * dead letters must be cut to fit. Afterwards every partition still applies events, the HTTP views equal the model of
 * the ordinary events, every bad record is a dead letter with its reason, and readiness is green.
 */
@Tag("integration")
class HostileInputIT {

    private static final long SEED = 20261201L;
    private static final int PARTITIONS = 3;
    private static final int MAX_REQUEST_BYTES = 300_000;
    private static final int HOSTILE = 400;

    @Test
    @Timeout(300)
    void shouldApplyEveryPartitionAndDeadLetterEveryBadRecordWhenHostileRecordsArrive() throws Exception {
        try (InProcessService service = InProcessService.start("hostile", PARTITIONS,
                Map.of("producer.max.request.size", Integer.toString(MAX_REQUEST_BYTES)));
             KafkaProducer<byte[], byte[]> producer = rawProducer();
             TestProducer shop = new TestProducer(service.inputTopic());
             DeadLetterReader deadLetters = new DeadLetterReader(service.deadLetterTopic())) {
            List<HistoryEvent> history = HistoryGenerator.generate(SEED, 100, 600);
            List<HostileRecords.Hostile> hostile = new ArrayList<>(new HostileRecords(SEED, 1_000_000).next(HOSTILE));
            hostile.add(new HostileRecords.Hostile(new byte[] {0x03, 0x00}, null, "invalid",
                    "the issue's tombstone keyed 03 00"));
            String bigKey = "k".repeat(400_000);
            hostile.add(new HostileRecords.Hostile(bigKey.getBytes(StandardCharsets.UTF_8),
                    ProductEventCodec.create().encodeSingleObject(ProductEvents.priceChanged("i".repeat(400_000), 2,
                            Instant.parse("2026-12-01T00:00:00Z"), 100, "EUR")),
                    "key_mismatch", "the issue's 400 KB key with a 400 KB productId"));

            CatalogModel model = new CatalogModel();
            Map<String, Long> expectedReasons = new TreeMap<>();
            SplittableRandom interleave = new SplittableRandom(SEED);
            int h = 0;
            for (HistoryEvent event : history) {
                while (h < hostile.size() && interleave.nextInt(3) == 0) {
                    HostileRecords.Hostile record = hostile.get(h++);
                    send(producer, new ProducerRecord<>(service.inputTopic(), record.key(), record.value()));
                    if (record.deadLettered()) {
                        expectedReasons.merge(record.expectedReason(), 1L, Long::sum);
                    }
                }
                shop.send(event);
                if (model.apply(event) == CatalogModel.Outcome.DEAD_LETTERED) {
                    expectedReasons.merge("unknown_product", 1L, Long::sum);
                }
            }
            for (; h < hostile.size(); h++) {
                HostileRecords.Hostile record = hostile.get(h);
                send(producer, new ProducerRecord<>(service.inputTopic(), record.key(), record.value()));
                if (record.deadLettered()) {
                    expectedReasons.merge(record.expectedReason(), 1L, Long::sum);
                }
            }
            long expectedLetters = expectedReasons.values().stream().mapToLong(Long::longValue).sum();

            List<ConsumerRecord<byte[], byte[]>> letters = await().alias("every bad record is a dead letter")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(deadLetters::poll, l -> l.size() >= expectedLetters);
            Map<String, Long> reasons = new TreeMap<>();
            letters.forEach(l -> reasons.merge(DeadLetterReader.header(l, "dlq.reason"), 1L, Long::sum));
            long cut = letters.stream().filter(l -> "true".equals(DeadLetterReader.header(l, "dlq.truncated"))).count();
            System.out.printf("hostile input over a real broker: %d ordinary events, %d hostile records; dead letters "
                    + "by reason %s (%d cut to fit %d bytes)%n", history.size(), hostile.size(), reasons, cut,
                    MAX_REQUEST_BYTES);

            assertThat(reasons).as("dead letters by reason").isEqualTo(expectedReasons);
            assertThat(cut).as("dead letters cut to fit the request size").isPositive();
            assertThat(letters).allSatisfy(l -> assertThat(l.serializedKeySize() + l.serializedValueSize())
                    .as("a dead letter's key and value").isLessThan(MAX_REQUEST_BYTES));

            // Every partition still applies events: one new product per input partition.
            List<String> probes = new ArrayList<>();
            for (int partition = 0; partition < PARTITIONS; partition++) {
                String id = idOnPartition(partition);
                probes.add(id);
                shop.sendSingleObject(ProductEvents.upsert(id, 1, Instant.parse("2026-12-01T00:00:00Z"),
                        ProductEvents.product(id, "acme", "probes", 100, 1, Instant.parse("2026-12-01T00:00:00Z"))));
            }
            HttpTestClient http = service.http();
            for (String id : probes) {
                await().alias(id + " is applied after the hostile records").atMost(Duration.ofSeconds(60))
                        .until(() -> http.get("/v1/products/" + id).status() == 200);
            }

            assertThat(http.productDifferences(model)).as("the product view vs the model of the ordinary events").isEmpty();
            Map<String, Long> categories = new TreeMap<>();
            http.get("/v1/categories").json().get("categories")
                    .forEach(c -> categories.put(c.get("category").asText(), c.get("count").asLong()));
            Map<String, Long> expectedCategories = new TreeMap<>();
            model.categories().forEach(c -> expectedCategories.put(c.category(), c.count()));
            expectedCategories.put("probes", (long) PARTITIONS);
            assertThat(categories).as("/v1/categories").isEqualTo(expectedCategories);
            assertThat(http.get("/health/ready").status()).as("readiness").isEqualTo(200);
            PrometheusText metrics = PrometheusText.parse(http.get("/metrics").body());
            expectedReasons.forEach((reason, count) -> assertThat(metrics.value("catalog_events_total",
                    Map.of("outcome", "dead_lettered", "reason", reason))).as("dead letters counted for %s", reason)
                    .isEqualTo(count.doubleValue()));
        }
    }

    private static String idOnPartition(int partition) {
        for (int i = 0; ; i++) {
            String id = "probe-" + i;
            if (KeyPartitioner.partitionOf(id, PARTITIONS) == partition) {
                return id;
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> rawProducer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record)
            throws InterruptedException {
        try {
            producer.send(record).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not publish a hostile record of " + (record.key() == null ? 0 : record.key().length)
                    + " + " + (record.value() == null ? 0 : record.value().length) + " bytes", e.getCause());
        }
    }
}
