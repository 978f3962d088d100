package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.catalogviews.it.TestEvents.product;
import static io.catalogviews.it.TestEvents.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A clean stop under read load (CONTRACT.md §4): while clients read products and category pages as fast as they
 * can, the instance stops. Every answer it gives on the way down is right or a 503 {@code unavailable} with
 * Retry-After that tells the client to go elsewhere; no 500 (Jetty answered some while it stopped with requests
 * still arriving, and a peer relayed them: found by {@code ScaleOutUnderLoadIT}).
 */
@Tag("integration")
@Timeout(180)
class CleanStopUnderLoadIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PRODUCTS = 50;
    private static final int READERS = 8;

    @Test
    void shouldAnswerRightOrRefuseWithRetryAfterAndNeverFailWhenTheInstanceStopsUnderLoad() throws Exception {
        InProcessService service = InProcessService.start("clean-stop-it", 4);
        String prefix = service.service().config().applicationId() + "-p";
        try (TestProducer producer = new TestProducer(service.inputTopic())) {
            for (int i = 0; i < PRODUCTS; i++) {
                producer.sendSingleObject(upsert(product(prefix + i, "acme", List.of("tvs"), 100 + i, 1, null), 1));
            }
        }
        await().alias("every product is listed in its category").atMost(Duration.ofSeconds(60))
                .until(() -> service.http().get("/v1/products?category=tvs&limit=100").json()
                        .path("items").size() == PRODUCTS);

        String base = "http://localhost:" + service.service().httpPort();
        Outcomes outcomes = new Outcomes();
        AtomicBoolean stopped = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        try {
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                Thread thread = new Thread(() -> read(base, prefix, reader, stopped, outcomes), "reader-" + r);
                thread.start();
                readers.add(thread);
            }
            await().alias("the readers are answered").atMost(Duration.ofSeconds(30))
                    .until(() -> outcomes.count("200") >= 200);

            outcomes.stopBegan = System.nanoTime();
            service.close();
            // Readers go on until the stopped server no longer takes connections.
            await().alias("the stopped instance refuses connections").atMost(Duration.ofSeconds(30))
                    .until(() -> outcomes.count("connection refused") >= READERS);
        } finally {
            stopped.set(true);
            service.close(); // a second close does nothing: here for a test that failed before its stop
        }
        for (Thread reader : readers) {
            reader.join(10_000);
        }

        System.out.println("clean stop under load: " + outcomes.counts);
        assertThat(outcomes.wrong).as("answers that were neither right nor a 503 with Retry-After").isEmpty();
        assertThat(outcomes.answeredWhileStopping).as("reads answered (200 or 503) after the stop began")
                .hasPositiveValue();
    }

    /** Reads a product and, one read in four, the category's first page, until told to stop. */
    private static void read(String base, String prefix, int reader, AtomicBoolean stopped, Outcomes outcomes) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (long n = reader; !stopped.get(); n += READERS) {
            boolean page = n % 4 == 0;
            String id = prefix + (n % PRODUCTS);
            URI uri = URI.create(base + (page ? "/v1/products?category=tvs&limit=20" : "/v1/products/" + id));
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                        .build(), HttpResponse.BodyHandlers.ofString());
                outcomes.classify(uri, response, page ? null : id);
            } catch (java.net.ConnectException e) {
                outcomes.add("connection refused");
            } catch (IOException e) {
                // A request sent as the server closed its connection: the client sees no answer, never a wrong one.
                outcomes.add("connection closed");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How every read ended, and the wrong answers in full. */
    private static final class Outcomes {
        final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        final AtomicLong answeredWhileStopping = new AtomicLong();
        volatile long stopBegan = Long.MAX_VALUE;

        void add(String outcome) {
            counts.computeIfAbsent(outcome, o -> new AtomicLong()).incrementAndGet();
        }

        long count(String outcome) {
            AtomicLong n = counts.get(outcome);
            return n == null ? 0 : n.get();
        }

        void classify(URI uri, HttpResponse<String> response, String id) {
            int status = response.statusCode();
            add(String.valueOf(status));
            if (System.nanoTime() > stopBegan) {
                answeredWhileStopping.incrementAndGet();
            }
            JsonNode body;
            try {
                body = JSON.readTree(response.body());
            } catch (IOException e) {
                wrong.add(uri + " answered " + status + " with a body that is not JSON: " + response.body());
                return;
            }
            boolean right = switch (status) {
                case 200 -> id != null ? id.equals(body.path("id").asText()) : body.path("items").size() == 20;
                case 503 -> response.headers().firstValue("Retry-After").isPresent()
                        && "unavailable".equals(body.path("error").path("code").asText());
                default -> false;
            };
            if (!right) {
                wrong.add(uri + " answered " + status + " " + response.headers().map() + " " + response.body());
            }
        }
    }
}
