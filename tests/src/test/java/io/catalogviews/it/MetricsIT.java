package io.catalogviews.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.catalogviews.api.logging.RequestLog;
import io.catalogviews.topology.EventCounters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /metrics} on a real instance after real events and requests: it parses as Prometheus text and holds
 * the event, freshness, HTTP, Kafka Streams (with RocksDB) and JVM series with the expected counts.
 */
@Tag("integration")
@Timeout(180)
class MetricsIT {

    private static InProcessService service;
    private static HttpTestClient http;
    private static final ListAppender<ILoggingEvent> CATALOG_LOGS = new ListAppender<>();

    @BeforeAll
    static void startAndFeed() {
        service = InProcessService.start("metrics-it", 2);
        http = service.http();
        Logger catalog = (Logger) LoggerFactory.getLogger("io.catalogviews");
        CATALOG_LOGS.start();
        catalog.addAppender(CATALOG_LOGS);
        try (TestProducer producer = new TestProducer(service.inputTopic())) {
            for (int i = 1; i <= 3; i++) {
                producer.sendSingleObject(TestEvents.upsert(TestEvents.product("m-" + i, "acme", List.of("phones"),
                        1000 * i, 1, 4.5f), 1));
            }
            producer.sendJson(TestEvents.price("m-1", 2, 1500));       // applied, price
            producer.sendSingleObject(TestEvents.stock("m-1", 1, 9));  // stale: version 1 <= 2
            producer.sendRaw("m-3", null);                             // applied, tombstone
            producer.sendRaw("m-4", new byte[0]);                      // dead letter: undecodable
            producer.sendJson(TestEvents.price("ghost-1", 1, 100));    // dead letter: unknown_product
        }
        EventCounters counters = service.service().counters();
        await().alias("all 8 records processed").atMost(Duration.ofSeconds(60))
                .until(() -> counters.applied() + counters.stale() + counters.deadLettered() == 8);
        // Outcomes are told before the transaction commits; wait (server side) until the reads see them.
        assertThat(http.get("/v1/products/m-1?minVersion=2&waitMs=10000").status()).isEqualTo(200);
        assertThat(http.get("/v1/products/m-2?minVersion=1&waitMs=10000").status()).isEqualTo(200);
        ((Logger) LoggerFactory.getLogger("io.catalogviews")).detachAppender(CATALOG_LOGS);
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static PrometheusText scrape() {
        HttpTestClient.Answer answer = http.get("/metrics");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).startsWith("text/plain").contains("version=0.0.4");
        return PrometheusText.parse(answer.body());
    }

    @Test
    void shouldCountEventsByOutcomeAndReasonWhenEventsWereProcessed() {
        PrometheusText metrics = scrape();

        assertThat(metrics.type("catalog_restore_remaining_records")).isEqualTo("gauge");
        assertThat(metrics.value("catalog_restore_remaining_records", Map.of()))
                .as("nothing left to restore once the instance is ready").isZero();
        assertThat(metrics.type("catalog_events_total")).isEqualTo("counter");
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "applied", "reason", "upsert"))).isEqualTo(3);
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "applied", "reason", "price"))).isEqualTo(1);
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "applied", "reason", "tombstone")))
                .isEqualTo(1);
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "applied", "reason", "stock"))).isZero();
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "stale", "reason", "version_not_newer")))
                .isEqualTo(1);
        assertThat(metrics.value("catalog_events_total", Map.of("outcome", "dead_lettered", "reason", "undecodable")))
                .isEqualTo(1);
        assertThat(metrics.value("catalog_events_total",
                Map.of("outcome", "dead_lettered", "reason", "unknown_product"))).isEqualTo(1);
        assertThat(metrics.sum("catalog_events_total", Map.of())).isEqualTo(8);
        // Bounded: 5 change kinds, version_not_newer, 7 dead-letter reasons (processing_error added by issue 11).
        assertThat(metrics.labelValues("catalog_events_total", "reason")).hasSizeLessThanOrEqualTo(13);
        assertThat(metrics.value("catalog_events_total",
                Map.of("outcome", "dead_lettered", "reason", "processing_error"))).isZero();
        assertThat(metrics.value("catalog_stream_threads_failing", Map.of())).isZero();
    }

    @Test
    void shouldRecordFreshnessOfEveryAppliedEventExceptTombstonesWhenEventsWereApplied() {
        PrometheusText metrics = scrape();

        assertThat(metrics.type("catalog_event_freshness_seconds")).isEqualTo("histogram");
        assertThat(metrics.value("catalog_event_freshness_seconds_count", Map.of())).isEqualTo(4);
        assertThat(metrics.value("catalog_event_freshness_seconds_bucket", Map.of("le", "+Inf"))).isEqualTo(4);
        assertThat(metrics.find("catalog_event_freshness_seconds_bucket", Map.of())).hasSizeGreaterThan(5);
        assertThat(metrics.value("catalog_event_freshness_seconds_sum", Map.of())).isPositive();
    }

    @Test
    void shouldCountRequestsByRouteTemplateAndStatusWhenRequestsWereServed() {
        http.get("/v1/products/m-1");
        http.get("/v1/products/m-2");
        http.get("/v1/products/absent-7");
        http.get("/v1/no-such-route/m-1");

        PrometheusText metrics = scrape();

        assertThat(metrics.type("http_server_requests_seconds")).isEqualTo("histogram");
        Map<String, String> found = Map.of("method", "GET", "route", "/v1/products/{id}", "status", "200");
        assertThat(metrics.value("http_server_requests_seconds_count", found)).isGreaterThanOrEqualTo(2);
        assertThat(metrics.value("http_server_requests_seconds_count",
                Map.of("method", "GET", "route", "/v1/products/{id}", "status", "404"))).isEqualTo(1);
        assertThat(metrics.value("http_server_requests_seconds_count",
                Map.of("method", "GET", "route", "unmatched", "status", "404"))).isGreaterThanOrEqualTo(1);
        assertThat(metrics.find("http_server_requests_seconds_bucket", found)).hasSizeGreaterThan(5);
        assertThat(metrics.labelValues("http_server_requests_seconds_count", "route"))
                .allSatisfy(route -> assertThat(route).doesNotContain("m-1", "m-2", "absent", "no-such-route"));
    }

    @Test
    void shouldCountFacetAnswersFromMemoryWhenTheSameFacetsAreReadAgainWithoutChanges() {
        String facets = "/v1/facets?category=phones&brand=acme";
        await().alias("facets of phones count both live products").atMost(Duration.ofSeconds(30))
                .until(() -> http.get(facets).body(), body -> body.startsWith("{\"total\":2,"));
        PrometheusText before = scrape();

        for (int i = 0; i < 3; i++) {
            assertThat(http.get(facets).status()).isEqualTo(200);
        }

        PrometheusText after = scrape();
        assertThat(after.type("catalog_facet_answers_total")).isEqualTo("counter");
        assertThat(after.value("catalog_facet_answers_total", Map.of("source", "memory"))
                - before.value("catalog_facet_answers_total", Map.of("source", "memory")))
                .as("answers kept since the last commit of phones").isEqualTo(3);
        assertThat(after.value("catalog_facet_answers_total", Map.of("source", "store"))).isPositive();
    }

    @Test
    void shouldExportBlockCacheLookupsOfEveryViewStoreWhenTheServiceRuns() {
        PrometheusText metrics = scrape();

        assertThat(metrics.type("catalog_block_cache_data_lookups_total")).isEqualTo("counter");
        assertThat(metrics.labelValues("catalog_block_cache_data_lookups_total", "store"))
                .containsExactlyInAnyOrder("product-view", "product-deletions");
        for (String result : new String[] {"hit", "miss"}) {
            assertThat(metrics.value("catalog_block_cache_data_lookups_total",
                    Map.of("store", "product-view", "result", result))).isNotNegative();
        }
    }

    @Test
    void shouldExportKafkaStreamsRocksDbAndJvmMetricsWhenTheStreamsAreRunning() {
        await().alias("Kafka Streams task and RocksDB metrics are exported").atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    PrometheusText metrics = scrape();
                    return !metrics.find("kafka_stream_state_estimate_num_keys", Map.of()).isEmpty()
                            && !metrics.find("kafka_stream_thread_process_total", Map.of()).isEmpty();
                });
        PrometheusText metrics = scrape();

        assertThat(metrics.find("kafka_consumer_fetch_manager_records_consumed_total", Map.of())).isNotEmpty();
        assertThat(metrics.find("kafka_stream_state_estimate_num_keys", Map.of())).isNotEmpty();
        assertThat(metrics.find("jvm_memory_used_bytes", Map.of())).isNotEmpty();
        assertThat(metrics.find("jvm_threads_live_threads", Map.of())).isNotEmpty();
        assertThat(metrics.find("process_uptime_seconds", Map.of())).isNotEmpty();
    }

    @Test
    void shouldLogNothingPerEventWhenEventsAreProcessed() {
        assertThat(CATALOG_LOGS.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .extracting(ILoggingEvent::getLoggerName)
                .noneMatch(name -> name.startsWith("io.catalogviews.topology")
                        || name.startsWith("io.catalogviews.views"));
    }

    @Test
    void shouldWriteNoRequestLinesWhenTheRequestLogIsOff() {
        Logger requests = (Logger) LoggerFactory.getLogger(RequestLog.LOGGER);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        requests.addAppender(lines);
        try {
            http.get("/v1/products/m-1");
            http.get("/health/live");
        } finally {
            requests.detachAppender(lines);
        }

        assertThat(lines.list).isEmpty();
    }
}
