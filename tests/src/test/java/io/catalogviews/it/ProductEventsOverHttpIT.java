package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.events.ProductEvent;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.catalogviews.it.TestEvents.deleted;
import static io.catalogviews.it.TestEvents.price;
import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.stock;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole path on a real broker: a producer publishes events in both encodings, the topology applies them
 * to RocksDB under exactly-once, and the HTTP API answers them.
 */
@Tag("integration")
@Timeout(180)
class ProductEventsOverHttpIT {

    private static InProcessService service;
    private static TestProducer producer;
    private static HttpTestClient http;

    @BeforeAll
    static void start() {
        service = InProcessService.start("http-it", 4);
        producer = new TestProducer(service.inputTopic());
        http = service.http();
    }

    @AfterAll
    static void stop() {
        producer.close();
        service.close();
    }

    private static HttpTestClient.Answer awaitProduct(String id, long version) {
        return http.get("/v1/products/" + id + "?minVersion=" + version + "&waitMs=10000");
    }

    @Test
    void shouldServeProductWhenPublishedInSingleObjectEncoding() {
        producer.sendSingleObject(upsert(product("so-1", "acme", List.of("phones", "electronics", "phones"),
                49_900, 3, 4.3f), 7));

        HttpTestClient.Answer answer = awaitProduct("so-1", 7);

        assertThat(answer.status()).isEqualTo(200);
        JsonNode p = answer.json();
        assertThat(p.get("id").asText()).isEqualTo("so-1");
        assertThat(p.get("sku").asText()).isEqualTo("SKU-so-1");
        assertThat(p.get("brand").asText()).isEqualTo("acme");
        assertThat(p.get("categories")).extracting(JsonNode::asText).containsExactly("phones", "electronics");
        assertThat(p.get("priceCents").asLong()).isEqualTo(49_900);
        assertThat(p.get("currency").asText()).isEqualTo("EUR");
        assertThat(p.get("stock").asInt()).isEqualTo(3);
        assertThat(p.get("inStock").asBoolean()).isTrue();
        assertThat(answer.body()).contains("\"rating\":4.3,");
        assertThat(p.get("attributes").get("color").asText()).isEqualTo("black");
        assertThat(p.get("updatedAt").asText()).isEqualTo("2026-11-29T10:00:00.000Z");
        assertThat(p.get("version").asLong()).isEqualTo(7);
        assertThat(answer.header("ETag")).isEqualTo("\"7\"");
        assertThat(answer.header("X-Served-By")).isEqualTo(service.service().self().hostPort());
    }

    @Test
    void shouldServeProductWhenPublishedAsAvroJsonText() {
        String json = "{\"eventId\":\"j-1\",\"productId\":\"json-1\",\"version\":3,\"occurredAt\":1795946400000,"
                + "\"change\":{\"io.catalogviews.events.ProductUpserted\":{\"product\":{\"id\":\"json-1\","
                + "\"sku\":\"S-1\",\"name\":\"Kettle \\\"Steam\\\"\",\"brand\":\"casa\",\"categories\":[\"kitchen\"],"
                + "\"priceCents\":2999,\"currency\":\"EUR\",\"stock\":0,\"rating\":null,\"attributes\":{},"
                + "\"updatedAt\":1795946400000}}}}";
        producer.sendRaw("json-1", json.getBytes(StandardCharsets.UTF_8));

        HttpTestClient.Answer answer = awaitProduct("json-1", 3);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("name").asText()).isEqualTo("Kettle \"Steam\"");
        assertThat(answer.json().get("inStock").asBoolean()).isFalse();
        assertThat(answer.json().get("rating").isNull()).isTrue();
    }

    @Test
    void shouldServeProductWhenAForeignProducerWroteSingleObjectBytesFromTheAvscAlone() throws IOException {
        // Built as a program outside this project would: the published .avsc, GenericRecord, the Avro spec's
        // single-object header. No class of this project is used to encode.
        Schema schema = new Schema.Parser().parse(Files.readString(Path.of("../schemas/src/main/avro/ProductEvent.avsc")));
        Schema upserted = schema.getField("change").schema().getTypes().get(0);
        Schema productSchema = upserted.getField("product").schema();
        GenericRecord p = new GenericData.Record(productSchema);
        p.put("id", "foreign-1");
        p.put("sku", "F-1");
        p.put("name", "Foreign Phone");
        p.put("brand", "zeta");
        p.put("categories", List.of("phones"));
        p.put("priceCents", 12_345L);
        p.put("currency", "USD");
        p.put("stock", 9);
        p.put("rating", 3.7f);
        p.put("attributes", Map.of("size", "L"));
        p.put("updatedAt", 1_795_946_400_000L);
        GenericRecord change = new GenericData.Record(upserted);
        change.put("product", p);
        GenericRecord event = new GenericData.Record(schema);
        event.put("eventId", "f-1");
        event.put("productId", "foreign-1");
        event.put("version", 2L);
        event.put("occurredAt", 1_795_946_400_000L);
        event.put("change", change);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xC3);
        out.write(0x01);
        out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(SchemaNormalization.parsingFingerprint64(schema)).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(event, encoder);
        encoder.flush();
        producer.sendRaw("foreign-1", out.toByteArray());

        HttpTestClient.Answer answer = awaitProduct("foreign-1", 2);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("currency").asText()).isEqualTo("USD");
        assertThat(answer.body()).contains("\"rating\":3.7,");
        assertThat(answer.json().get("attributes").get("size").asText()).isEqualTo("L");
    }

    @Test
    void shouldApplyPatchesAndDeletesWhenPublishedInOrder() {
        producer.sendSingleObject(upsert(product("patch-1", "acme", List.of("tvs"), 100_000, 5, null), 1));
        producer.sendJson(price("patch-1", 2, 89_900));
        producer.sendSingleObject(stock("patch-1", 3, 0));

        HttpTestClient.Answer patched = awaitProduct("patch-1", 3);
        assertThat(patched.json().get("priceCents").asLong()).isEqualTo(89_900);
        assertThat(patched.json().get("stock").asInt()).isZero();
        assertThat(patched.json().get("inStock").asBoolean()).isFalse();
        assertThat(patched.json().get("updatedAt").asText()).isEqualTo("2026-11-29T10:00:03.000Z");
        assertThat(http.get("/v1/products/patch-1", "If-None-Match", "\"3\"").status()).isEqualTo(304);

        producer.sendSingleObject(deleted("patch-1", 4));
        HttpTestClient.Answer gone = awaitProduct("patch-1", 4);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().at("/error/code").asText()).isEqualTo("not_found");

        // A late, older upsert must not resurrect the deleted product: it is counted as stale.
        long staleBefore = service.service().counters().stale();
        producer.sendSingleObject(upsert(product("patch-1", "acme", List.of("tvs"), 1, 1, null), 2));
        await().alias("the late upsert was processed as stale").atMost(Duration.ofSeconds(30))
                .until(() -> service.service().counters().stale() > staleBefore);
        assertThat(http.get("/v1/products/patch-1").status()).isEqualTo(404);
    }

    @Test
    void shouldCountEveryLaterChangeInFacetsWhenTheSameFacetsWereReadBefore() {
        // Facets are kept in memory between the commits that change their category (FacetCache): reading them first
        // keeps them, and every later change of the category must still show.
        producer.sendSingleObject(upsert(product("fresh-1", "acme", List.of("fresh-facets"), 1_000, 3, null), 1));
        producer.sendSingleObject(upsert(product("fresh-2", "zeta", List.of("fresh-facets"), 2_000, 0, null), 1));
        String before = "{\"total\":2,\"inStock\":1,\"brands\":[{\"value\":\"acme\",\"count\":1},"
                + "{\"value\":\"zeta\",\"count\":1}],\"price\":{\"min\":1000,\"max\":2000}}";
        String acmeBefore = "{\"total\":1,\"inStock\":1,\"brands\":[{\"value\":\"acme\",\"count\":1}],"
                + "\"price\":{\"min\":1000,\"max\":1000}}";
        await().alias("facets of both products").atMost(Duration.ofSeconds(30))
                .until(() -> http.get("/v1/facets?category=fresh-facets").body(), before::equals);
        assertThat(http.get("/v1/facets?category=fresh-facets").body()).as("read again").isEqualTo(before);
        await().alias("facets of acme").atMost(Duration.ofSeconds(30))
                .until(() -> http.get("/v1/facets?category=fresh-facets&brand=acme").body(), acmeBefore::equals);

        producer.sendSingleObject(stock("fresh-2", 2, 4));
        producer.sendSingleObject(price("fresh-1", 2, 500));
        producer.sendSingleObject(upsert(product("fresh-3", "acme", List.of("fresh-facets"), 3_000, 1, null), 1));
        producer.sendSingleObject(deleted("fresh-2", 3));

        String after = "{\"total\":2,\"inStock\":2,\"brands\":[{\"value\":\"acme\",\"count\":2}],"
                + "\"price\":{\"min\":500,\"max\":3000}}";
        await().alias("facets count the stock change, the new price, the new product and the deletion")
                .atMost(Duration.ofSeconds(30))
                .until(() -> http.get("/v1/facets?category=fresh-facets").body(), after::equals);
        await().alias("facets of acme count the new price and the new product").atMost(Duration.ofSeconds(30))
                .until(() -> http.get("/v1/facets?category=fresh-facets&brand=acme").body(), after::equals);
    }

    @Test
    void shouldAnswerWaitingReadWhenTheVersionArrivesDuringTheWait() {
        CompletableFuture<HttpTestClient.Answer> waiting =
                CompletableFuture.supplyAsync(() -> http.get("/v1/products/wait-1?minVersion=5&waitMs=10000"));
        await().alias("the waiting request is parked").atMost(Duration.ofSeconds(5))
                .during(Duration.ofMillis(300)).until(() -> !waiting.isDone());
        producer.sendSingleObject(upsert(product("wait-1", "acme", List.of("tvs"), 1_000, 1, null), 5));

        HttpTestClient.Answer answer = waiting.join();

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("version").asLong()).isEqualTo(5);
    }

    @Test
    void shouldAnswerVersionNotReachedWhenTheWaitEnds() {
        producer.sendSingleObject(upsert(product("slow-1", "acme", List.of("tvs"), 1_000, 1, null), 1));
        awaitProduct("slow-1", 1);

        HttpTestClient.Answer answer = http.get("/v1/products/slow-1?minVersion=2&waitMs=200");

        assertThat(answer.status()).isEqualTo(409);
        assertThat(answer.json().at("/error/code").asText()).isEqualTo("version_not_reached");
        assertThat(answer.json().at("/error/currentVersion").asLong()).isEqualTo(1);
        assertThat(http.get("/v1/products/never-1?minVersion=1").json().at("/error/currentVersion").isNull())
                .isTrue();
    }

    @Test
    void shouldReturnFoundAndMissingInRequestOrderWhenBatchGetting() {
        producer.sendSingleObject(upsert(product("b-1", "acme", List.of("tvs"), 1_000, 1, null), 1));
        producer.sendJson(upsert(product("b-2", "zeta", List.of("tvs"), 2_000, 1, null), 1));
        awaitProduct("b-1", 1);
        awaitProduct("b-2", 1);

        HttpTestClient.Answer answer = http.postJson("/v1/products/batch",
                "{\"ids\":[\"b-2\",\"nope-1\",\"b-1\",\"b-2\",\"nope-2\"]}");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("products")).extracting(p -> p.get("id").asText()).containsExactly("b-2", "b-1");
        assertThat(answer.json().get("missing")).extracting(JsonNode::asText).containsExactly("nope-1", "nope-2");
    }

    @Test
    void shouldDeadLetterBadRecordsWithReasonAndKeepServingWhenRecordsAreBad() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace-id", "t-123".getBytes(StandardCharsets.UTF_8));
        byte[] confluent = {0x00, 0x00, 0x00, 0x00, 0x2A, 0x01, 0x02};
        producer.sendRaw("dlq-1", confluent, headers);
        ProductEvent negativePrice = upsert(product("dlq-2", "acme", List.of("tvs"), -1, 1, null), 1);
        producer.sendSingleObject(negativePrice);
        producer.sendSingleObject(upsert(product("after-dlq", "acme", List.of("tvs"), 5, 1, null), 1));

        try (DeadLetterReader dlq = new DeadLetterReader(service.deadLetterTopic())) {
            List<ConsumerRecord<byte[], byte[]>> letters = await().alias("two dead letters arrive")
                    .atMost(Duration.ofSeconds(30)).until(dlq::poll, l -> l.size() >= 2);
            ConsumerRecord<byte[], byte[]> undecodable = letters.stream()
                    .filter(r -> "dlq-1".equals(new String(r.key(), StandardCharsets.UTF_8))).findFirst().orElseThrow();
            assertThat(DeadLetterReader.header(undecodable, "dlq.reason")).isEqualTo("undecodable");
            assertThat(DeadLetterReader.header(undecodable, "dlq.detail")).containsIgnoringCase("confluent");
            assertThat(DeadLetterReader.header(undecodable, "dlq.topic")).isEqualTo(service.inputTopic());
            assertThat(DeadLetterReader.header(undecodable, "dlq.partition")).matches("\\d+");
            assertThat(DeadLetterReader.header(undecodable, "dlq.offset")).matches("\\d+");
            assertThat(DeadLetterReader.header(undecodable, "trace-id")).isEqualTo("t-123");
            assertThat(undecodable.value()).isEqualTo(confluent);
            ConsumerRecord<byte[], byte[]> invalid = letters.stream()
                    .filter(r -> "dlq-2".equals(new String(r.key(), StandardCharsets.UTF_8))).findFirst().orElseThrow();
            assertThat(DeadLetterReader.header(invalid, "dlq.reason")).isEqualTo("invalid");
            assertThat(DeadLetterReader.header(invalid, "dlq.detail")).contains("priceCents");
        }
        assertThat(awaitProduct("after-dlq", 1).status()).isEqualTo(200);
        assertThat(http.get("/v1/products/dlq-2").status()).isEqualTo(404);
        assertThat(http.get("/health/ready").status()).isEqualTo(200);
    }
}
