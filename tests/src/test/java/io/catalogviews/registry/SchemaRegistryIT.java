package io.catalogviews.registry;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.catalogviews.cli.registry.SchemaRegistryProcess;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.registry.RegistryClientSettings;
import io.catalogviews.it.DeadLetterReader;
import io.catalogviews.it.InProcessService;
import io.catalogviews.it.TestKafka;
import io.catalogviews.it.TestProducer;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.model.HistoryGenerator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The third encoding end to end (CONTRACT.md section 4): a real Apicurio Registry as a child process, producers using
 * Apicurio's Avro serializer (Confluent framing), the service reading the registry's Confluent-compatible API on a
 * real broker.
 */
@Tag("integration")
@Timeout(240)
class SchemaRegistryIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static SchemaRegistryProcess registry;

    @BeforeAll
    static void startRegistry() {
        TestKafka.bootstrapServers();
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) {
            registry.close();
        }
    }

    private static RegistryClientSettings settings() {
        return RegistryClientSettings.of(registry.confluentApiUrl());
    }

    @Test
    void shouldMatchTheModelWhenEventsOfTwoRegisteredSchemaVersionsArePublished() throws Exception {
        List<HistoryEvent> history = HistoryGenerator.generate(1601L, 25, 120);
        CatalogModel model = CatalogModel.of(history);
        Schema older = ApicurioSerde.olderWithoutRating();
        try (InProcessService service = InProcessService.start("registry-model", 3, settings());
             KafkaProducer<String, Object> producer = producer()) {
            int olderSent = 0;
            for (HistoryEvent event : history) {
                ProductEvent avro = event.toAvro();
                Object value = null;
                if (avro != null) {
                    // The older schema cannot carry a rating: events without one go out in it, half of the others
                    // (price, stock, deletions) too, so both registered versions interleave on every partition.
                    boolean useOlder = !hasRating(avro) && (avro.getChange() instanceof io.catalogviews.events
                            .ProductUpserted || Math.floorMod(avro.getEventId().hashCode(), 2) == 0);
                    value = ApicurioSerde.record(useOlder ? older : ApicurioSerde.current(), avro);
                    olderSent += useOlder ? 1 : 0;
                }
                producer.send(new ProducerRecord<>(service.inputTopic(), event.productId(), value)).get();
            }
            assertThat(olderSent).as("events written with the older schema").isGreaterThan(15);

            long expected = history.size();
            await().alias("every event applied, stale or dead-lettered").atMost(WAIT)
                    .until(() -> processed(service) >= expected);
            assertThat(service.service().counters().applied()).isEqualTo(model.count(CatalogModel.Outcome.APPLIED));
            assertThat(service.service().counters().stale()).isEqualTo(model.count(CatalogModel.Outcome.STALE));
            assertThat(service.service().counters().deadLettered())
                    .isEqualTo(model.count(CatalogModel.Outcome.DEAD_LETTERED));
            // Applied is counted when a record is processed; reads see it once its transaction commits (≤ 100 ms).
            await().alias("the views match the model once the last transaction is committed").atMost(WAIT)
                    .untilAsserted(() -> assertThat(service.http().productDifferences(model)).as("views vs model").isEmpty());
            assertThat(registryVersions(service.inputTopic())).as("versions registered by the serializer").hasSize(2);
        }
    }

    @Test
    void shouldDeadLetterWithTheIdAndReasonWhenTheIdIsUnknownOrTheSchemaDoesNotResolve() {
        try (InProcessService service = InProcessService.start("registry-dlq", 2, settings());
             TestProducer raw = new TestProducer(service.inputTopic());
             DeadLetterReader dlq = new DeadLetterReader(service.deadLetterTopic());
             AvroKafkaSerializer<GenericRecord> serializer = ApicurioSerde.serializer(registry.apicurioApiUrl())) {
            ProductEvent event = io.catalogviews.it.TestEvents.upsert(io.catalogviews.it.TestEvents.product("p-1",
                    "acme", List.of("phones"), 1_000, 1, null), 1);
            byte[] good = serializer.serialize(service.inputTopic(), ApicurioSerde.record(ApicurioSerde.current(),
                    event));
            byte[] otherNames = serializer.serialize(service.inputTopic(),
                    ApicurioSerde.record(ApicurioSerde.otherNamespace(), event));
            byte[] stockAsString = serializer.serialize(service.inputTopic(),
                    ApicurioSerde.record(ApicurioSerde.stockAsString(), event));
            byte[] unknownId = good.clone();
            unknownId[1] = 0x7F; // the serializer's framing, with an id no registry here has handed out
            assertThat(good[0]).as("Confluent magic byte").isZero();

            raw.sendRaw("p-1", unknownId);
            raw.sendRaw("p-1", otherNames);
            raw.sendRaw("p-1", stockAsString);
            raw.sendRaw("p-1", good);

            await().alias("three dead letters").atMost(WAIT).until(() -> dlq.poll().size() >= 3);
            List<ConsumerRecord<byte[], byte[]>> letters = dlq.poll();
            assertThat(letters).extracting(r -> DeadLetterReader.header(r, "dlq.reason"))
                    .containsExactly("undecodable", "undecodable", "undecodable");
            assertThat(letters).extracting(r -> DeadLetterReader.header(r, "dlq.detail")).containsExactly(
                    "schema id " + ApicurioSerde.schemaId(unknownId) + " is not in the schema registry (it answered:"
                            + " No content with ID '" + ApicurioSerde.schemaId(unknownId) + "' was found.)",
                    "schema id " + ApicurioSerde.schemaId(otherNames) + " in the schema registry is record"
                            + " com.shop.events.ProductEvent, not io.catalogviews.events.ProductEvent (Avro resolution"
                            + " matches records by full name)",
                    // Avro's checker reports the nested type change at the union branch that holds it.
                    "schema id " + ApicurioSerde.schemaId(stockAsString) + " in the schema registry cannot be resolved"
                            + " to the current io.catalogviews.events.ProductEvent: MISSING_UNION_BRANCH at"
                            + " /fields/4/type/0 (reader union lacking writer type: RECORD)");
            await().alias("the good event applied").atMost(WAIT)
                    .until(() -> service.http().get("/v1/products/p-1").status() == 200);
        }
    }

    @Test
    void shouldWaitWithoutDeadLettersWhileTheRegistryIsDownAndApplyEverythingOnceItIsBack() throws Exception {
        try (InProcessService service = InProcessService.start("registry-outage", 2, settings());
             TestProducer raw = new TestProducer(service.inputTopic());
             DeadLetterReader dlq = new DeadLetterReader(service.deadLetterTopic());
             AvroKafkaSerializer<GenericRecord> serializer = ApicurioSerde.serializer(registry.apicurioApiUrl())) {
            String topic = service.inputTopic();
            ProductEvent first = upsert("o-1", 1, 4.5f);
            raw.sendRaw("o-1", serializer.serialize(topic, ApicurioSerde.record(ApicurioSerde.current(), first)));
            await().alias("o-1 applied: the current schema's id is cached").atMost(WAIT)
                    .until(() -> service.http().get("/v1/products/o-1").status() == 200);
            // Serialized while the registry is up, published while it is down: the older schema's id is new to the
            // service, so it has to ask the registry.
            byte[] olderId = serializer.serialize(topic, ApicurioSerde.record(ApicurioSerde.olderWithoutRating(),
                    upsert("o-2", 1, null)));
            byte[] cachedId = serializer.serialize(topic, ApicurioSerde.record(ApicurioSerde.current(),
                    upsert("o-1", 2, 3.5f)));
            byte[] later = serializer.serialize(topic, ApicurioSerde.record(ApicurioSerde.current(),
                    upsert("o-3", 1, 1.0f)));

            registry.stop();
            raw.sendRaw("o-2", olderId);
            raw.sendRaw("o-1", cachedId);

            await().alias("readiness says ingestion waits for the registry").atMost(WAIT)
                    .until(() -> {
                        var ready = service.http().get("/health/ready");
                        return ready.status() == 503 && ready.body().contains("schema registry")
                                && ready.body().contains("ingestion waits");
                    });
            assertThat(service.http().get("/metrics").body()).contains("catalog_schema_registry_waiting 1.0");
            assertThat(service.http().get("/v1/products/o-2").status()).as("not applied while down").isEqualTo(404);
            assertThat(service.http().get("/v1/products/o-1").status()).as("reads go on while it waits")
                    .isEqualTo(200);
            assertThat(service.service().counters().deadLettered()).isZero();

            raw.sendRaw("o-3", later);
            registry.restart();

            await().alias("everything published meanwhile applied").atMost(WAIT).until(() ->
                    service.http().get("/v1/products/o-2").status() == 200
                            && service.http().get("/v1/products/o-3").status() == 200
                            && service.http().get("/v1/products/o-1").json().get("version").asLong() == 2);
            await().alias("ready again").atMost(WAIT).until(() -> service.http().get("/health/ready").status() == 200);
            assertThat(service.http().get("/v1/products/o-2").json().get("rating").isNull()).isTrue();
            assertThat(service.service().counters().deadLettered()).isZero();
            assertThat(dlq.poll()).isEmpty();
            assertThat(service.http().get("/metrics").body()).contains("catalog_schema_registry_waiting 0.0")
                    .containsPattern("catalog_schema_registry_failed_requests_total [1-9]");
        }
    }

    @Test
    void shouldReplaceTheThreadWithoutDeadLettersWhenTheRegistryIsDownLongerThanTheLookupBudget() {
        // A 1 s budget stands in for an outage longer than the default 4 minutes; short group timeouts let the
        // replaced thread's member leave the group quickly.
        RegistryClientSettings shortBudget = settings().withRetryBudget(Duration.ofSeconds(1));
        try (InProcessService service = InProcessService.start("registry-budget", 1, shortBudget,
                io.catalogviews.it.ServiceProcess.FAST_GROUP_SETTINGS);
             TestProducer raw = new TestProducer(service.inputTopic());
             DeadLetterReader dlq = new DeadLetterReader(service.deadLetterTopic());
             AvroKafkaSerializer<GenericRecord> serializer = ApicurioSerde.serializer(registry.apicurioApiUrl())) {
            byte[] value = serializer.serialize(service.inputTopic(),
                    ApicurioSerde.record(ApicurioSerde.olderWithoutRating(), upsert("b-1", 1, null)));

            registry.stop();
            raw.sendRaw("b-1", value);
            await().alias("a stream thread replaced after waiting its budget").atMost(WAIT).until(() ->
                    service.http().get("/metrics").body()
                            .matches("(?s).*catalog_schema_registry_thread_replacements_total [1-9].*"));
            assertThat(service.service().counters().deadLettered()).isZero();
            assertThat(service.http().get("/metrics").body()).as("not counted as a failing thread")
                    .contains("catalog_stream_thread_failures_total 0.0");
            registry.restart();

            await().alias("b-1 applied once the registry is back").atMost(WAIT)
                    .until(() -> service.http().get("/v1/products/b-1").status() == 200);
            assertThat(service.service().counters().deadLettered()).isZero();
            assertThat(dlq.poll()).isEmpty();
        }
    }

    @Test
    void shouldRegisterTheSchemaAndPublishTheFramingWhenPublishIsGivenTheRegistry() throws Exception {
        try (InProcessService service = InProcessService.start("registry-publish", 2, settings())) {
            int exit = io.catalogviews.cli.CatalogViewsCli.commandLine(Map.of()).execute("publish",
                    "--bootstrap-servers", TestKafka.bootstrapServers(), "--topic", service.inputTopic(),
                    "--schema-registry-url", registry.confluentApiUrl(), "--synthetic", "25");

            assertThat(exit).isZero();
            await().alias("the 25 products applied").atMost(WAIT)
                    .until(() -> service.service().counters().applied() == 25);
            assertThat(service.service().counters().deadLettered()).isZero();
            assertThat(registryVersions(service.inputTopic())).as("registered under <topic>-value").hasSize(1);
        }
    }

    private static ProductEvent upsert(String id, long version, Float rating) {
        return io.catalogviews.it.TestEvents.upsert(io.catalogviews.it.TestEvents.product(id, "acme",
                List.of("phones"), 1_000, 1, rating), version);
    }

    private static boolean hasRating(ProductEvent event) {
        return event.getChange() instanceof io.catalogviews.events.ProductUpserted upserted
                && upserted.getProduct().getRating() != null;
    }

    private static long processed(InProcessService service) {
        var counters = service.service().counters();
        return counters.applied() + counters.stale() + counters.deadLettered();
    }

    private static KafkaProducer<String, Object> producer() {
        Map<String, Object> config = new HashMap<>(ApicurioSerde.producerConfig(registry.apicurioApiUrl()));
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config);
    }

    /** The versions of the topic's value subject, through the Confluent-compatible API. */
    private static List<Integer> registryVersions(String topic) throws ExecutionException, InterruptedException {
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                    registry.confluentApiUrl() + "/subjects/" + topic + "-value/versions")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            List<Integer> versions = new ArrayList<>();
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body())
                    .forEach(v -> versions.add(v.asInt()));
            return versions;
        } catch (java.io.IOException e) {
            throw new ExecutionException(e);
        }
    }
}
