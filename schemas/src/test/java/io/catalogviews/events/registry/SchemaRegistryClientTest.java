package io.catalogviews.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.catalogviews.events.ProductEvent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real HTTP server on a random port that answers as a Confluent-compatible registry would
 * (status codes and bodies copied from Apicurio Registry 3.0.9's). The real registry is exercised end to end in the
 * tests module (io.catalogviews.registry.SchemaRegistryIT).
 */
class SchemaRegistryClientTest {
  private static final String SCHEMA = ProductEvent.getClassSchema().toString();

  private HttpServer server;
  private String root;
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final AtomicInteger requests = new AtomicInteger();

  private record Answer(int status, String body) {}

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/apis/ccompat/v7/", this::answer);
    server.start();
    root = "http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7";
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void shouldReturnTheSchemaWhenTheRegistryHoldsTheId() {
    answers.put("/apis/ccompat/v7/schemas/ids/7", new Answer(200, json(Map.of("schema", SCHEMA))));

    RegistryLookup lookup = client(RegistryClientSettings.of(root + "/")).schemaById(7);

    assertThat(lookup).isEqualTo(new RegistryLookup.Found(7, SCHEMA, "AVRO"));
  }

  @Test
  void shouldReadTheReferencesAndTheReferencedVersionsWhenTheSchemaHasReferences() {
    answers.put("/apis/ccompat/v7/schemas/ids/6", new Answer(200, "{\"schema\":\"{}\",\"schemaType\":\"AVRO\","
        + "\"references\":[{\"name\":\"a.B\",\"subject\":\"a.B\",\"version\":2}]}"));
    answers.put("/apis/ccompat/v7/subjects/a.B/versions/2", new Answer(200, "{\"subject\":\"a.B\",\"version\":2,"
        + "\"id\":4,\"schema\":\"\\\"int\\\"\",\"references\":[]}"));
    answers.put("/apis/ccompat/v7/subjects/a.C/versions/1", new Answer(404,
        "{\"message\":\"Subject 'a.C' not found.\",\"error_code\":40401}"));
    SchemaRegistryClient client = client(RegistryClientSettings.of(root));
    RegistryLookup.Reference b = new RegistryLookup.Reference("a.B", "a.B", 2);

    assertThat(client.schemaById(6)).isEqualTo(new RegistryLookup.Found(6, "{}", "AVRO", List.of(b)));
    assertThat(client.referenced(b, 6)).isEqualTo(new RegistryLookup.Found(6, "\"int\"", "AVRO"));
    assertThat(client.referenced(new RegistryLookup.Reference("a.C", "a.C", 1), 6))
        .isEqualTo(new RegistryLookup.NotFound(6, "Subject 'a.C' not found."));
  }

  @Test
  void shouldSayNotFoundWhenTheRegistryAnswersErrorCode40403() {
    answers.put("/apis/ccompat/v7/schemas/ids/9", new Answer(404,
        "{\"message\":\"No content with ID '9' was found.\",\"error_code\":40403}"));

    assertThat(client(RegistryClientSettings.of(root)).schemaById(9))
        .isEqualTo(new RegistryLookup.NotFound(9, "No content with ID '9' was found."));
  }

  @Test
  void shouldGiveUpAfterTheBudgetWithoutCallingTheIdUnknownWhenA404IsNotTheRegistrys() {
    // The URL without /apis/ccompat/v7: the server's 404 is about the path, not about schema 9.
    SchemaRegistryClient client = client(RegistryClientSettings.of(root.replace("/apis/ccompat/v7", "/apis"))
        .withRetryBudget(Duration.ofMillis(300)));

    assertThatThrownBy(() -> client.schemaById(9)).isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("answered 404 without Confluent's error code 40403")
        .hasMessageContaining("/apis/ccompat/v7");
    assertThat(client.failedAttempts()).as("retried within the budget").isGreaterThan(1);
  }

  @Test
  void shouldRetryAndThenAnswerWhenTheRegistryRecoversWithinTheBudget() {
    AtomicInteger calls = new AtomicInteger();
    server.removeContext("/apis/ccompat/v7/");
    server.createContext("/apis/ccompat/v7/", exchange -> {
      requests.incrementAndGet();
      if (calls.incrementAndGet() < 3) {
        reply(exchange, 503, "{\"message\":\"storage not ready\",\"error_code\":50003}");
      } else {
        reply(exchange, 200, json(Map.of("schema", SCHEMA)));
      }
    });
    SchemaRegistryClient client = client(RegistryClientSettings.of(root));

    assertThat(client.schemaById(1)).isInstanceOf(RegistryLookup.Found.class);
    assertThat(calls.get()).isEqualTo(3);
    assertThat(client.failedAttempts()).isEqualTo(2);
    assertThat(client.problem()).as("cleared by the answer").isNull();
  }

  @Test
  void shouldNameTheRefusalAndKeepAProblemWhenTheCredentialsAreRefused() {
    answers.put("/apis/ccompat/v7/schemas/ids/1", new Answer(401, "{\"message\":\"Unauthorized\"}"));
    SchemaRegistryClient client = client(RegistryClientSettings.of(root).withRetryBudget(Duration.ZERO));

    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("refused the credentials (HTTP 401: Unauthorized)")
        .hasMessageContaining("1 attempt");
    assertThat(client.problem()).startsWith("schema registry " + root + " gives no answer (refused the credentials")
        .contains("nothing is dead-lettered");
  }

  @Test
  void shouldSayConnectionRefusedWhenNothingListens() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    SchemaRegistryClient client = client(RegistryClientSettings.of("http://127.0.0.1:" + port)
        .withRetryBudget(Duration.ofMillis(500)));
    long start = System.nanoTime();

    assertThatThrownBy(() -> client.schemaById(3)).isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("cannot be reached for schema id 3: connection refused");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the budget")
        .isBetween(Duration.ofMillis(500), Duration.ofSeconds(3));
    assertThat(client.failedAttempts()).as("backing off, not spinning").isBetween(2L, 6L);
  }

  @Test
  void shouldEndTheRetryWaitAtOnceWhenClosed() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    SchemaRegistryClient client = client(RegistryClientSettings.of("http://127.0.0.1:" + port)
        .withRetryBudget(Duration.ofMinutes(1)));
    java.util.concurrent.CompletableFuture<Throwable> lookup = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        client.schemaById(3);
        return null;
      } catch (RuntimeException e) {
        return e;
      }
    });
    org.awaitility.Awaitility.await().alias("the lookup is retrying").atMost(Duration.ofSeconds(10))
        .until(() -> client.failedAttempts() >= 2);

    client.close();

    assertThat(lookup.get(5, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(SchemaRegistryUnavailableException.class).hasMessageContaining("closed");
  }

  @Test
  void shouldSendTheBasicOrBearerCredentialsWhenConfigured() {
    answers.put("/apis/ccompat/v7/schemas/ids/1", new Answer(200, json(Map.of("schema", SCHEMA))));

    client(RegistryClientSettings.fromProperties(root, Map.of("basic.auth.credentials.source", "USER_INFO",
        "basic.auth.user.info", "shop:s3cret"), "test")).schemaById(1);
    client(RegistryClientSettings.fromProperties(root, Map.of("schema.registry.bearer.auth.token", "tok-123"),
        "test")).schemaById(1);
    client(RegistryClientSettings.of(root)).schemaById(1);

    assertThat(authorizations).containsExactly("Basic c2hvcDpzM2NyZXQ=", "Bearer tok-123", "(none)");
  }

  @Test
  void shouldPostTheSchemaAndReturnItsIdWhenRegistering() {
    answers.put("/apis/ccompat/v7/subjects/catalog.product-events-value/versions", new Answer(200, "{\"id\":12}"));

    int id = client(RegistryClientSettings.of(root)).register("catalog.product-events-value",
        ProductEvent.getClassSchema());

    assertThat(id).isEqualTo(12);
    assertThat(bodies).hasSize(1);
    assertThat(bodies.get(0)).isEqualTo(json(Map.of("schema", SCHEMA)));
  }

  @Test
  void shouldNameTheSubjectAndTheRegistrysMessageWhenRegistrationIsRefused() {
    answers.put("/apis/ccompat/v7/subjects/s-value/versions", new Answer(409,
        "{\"message\":\"Schema being registered is incompatible\",\"error_code\":409}"));

    assertThatThrownBy(() -> client(RegistryClientSettings.of(root)).register("s-value",
        ProductEvent.getClassSchema())).isInstanceOf(IllegalStateException.class)
        .hasMessage("schema registry " + root + " did not register the schema under subject 's-value': HTTP 409:"
            + " Schema being registered is incompatible");
  }

  private SchemaRegistryClient client(RegistryClientSettings settings) {
    return SchemaRegistryClient.create(settings);
  }

  private void answer(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    authorizations.add(auth == null ? "(none)" : auth);
    byte[] body = exchange.getRequestBody().readAllBytes();
    if (body.length > 0) {
      bodies.add(new String(body, StandardCharsets.UTF_8));
    }
    Answer answer = answers.getOrDefault(exchange.getRequestURI().getPath(),
        new Answer(404, "<html>Not found</html>"));
    reply(exchange, answer.status(), answer.body());
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static String json(Map<String, String> fields) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(fields);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
