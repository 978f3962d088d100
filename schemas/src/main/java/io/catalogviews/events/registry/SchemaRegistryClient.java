package io.catalogviews.events.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.avro.Schema;

/**
 * A small client of a schema registry's Confluent-compatible REST API: {@code GET /schemas/ids/{id}} to read a
 * writer schema, {@code GET /subjects/{subject}/versions/{version}} to read the schemas it references (Apicurio's
 * serializers register each nested record under a subject of its own), {@code POST /subjects/{subject}/versions}
 * to register one. Works with Confluent Schema Registry,
 * Apicurio Registry ({@code /apis/ccompat/v7}) and any other registry serving that API.
 *
 * <p>What counts as an answer: a schema (200), or "no such schema" (404 with Confluent's error code 40403). Anything
 * else — no connection, a timeout, a 5xx, refused credentials, a 404 without that error code (the URL is not the
 * API root), a body that is not a schema — is no answer: {@link #schemaById} retries it with exponential back-off
 * within {@link RegistryClientSettings#retryBudget()} and then throws {@link SchemaRegistryUnavailableException}
 * ({@link #close()} ends the wait early).
 * A misconfigured URL or expired credentials must never turn good records into dead letters.
 *
 * <p>This client does not cache; the codec caches what it derives from each id (ids are immutable). Thread-safe.
 */
public final class SchemaRegistryClient implements SchemaLookup, AutoCloseable {
  /** Confluent's media type; Apicurio and Confluent also accept {@code application/json}. */
  static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";
  /** Confluent's error code for "schema not found". */
  static final int SCHEMA_NOT_FOUND = 40403;
  /** Confluent's error codes for "subject not found" and "version not found" (a schema reference's target). */
  static final List<Integer> REFERENCE_NOT_FOUND = List.of(40401, 40402);
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);
  private static final Duration MIN_ATTEMPT_TIMEOUT = Duration.ofSeconds(1);
  private static final int MAX_MESSAGE_CHARS = 200;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RegistryClientSettings settings;
  private final HttpClient http;
  private final AtomicReference<Problem> problem = new AtomicReference<>();
  private final LongAdder found = new LongAdder();
  private final LongAdder notFound = new LongAdder();
  private final LongAdder failedAttempts = new LongAdder();
  private final Object closeLock = new Object();
  private boolean closed;

  private record Problem(String sentence, Instant since) {}

  private SchemaRegistryClient(RegistryClientSettings settings) {
    this.settings = settings;
    HttpClient.Builder builder = HttpClient.newBuilder()
        // HTTP/1.1: the JDK client would otherwise try an h2c upgrade on every plain-http request.
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(settings.requestTimeout())
        .followRedirects(HttpClient.Redirect.NORMAL);
    if (settings.sslContext() != null) {
      builder.sslContext(settings.sslContext());
    }
    this.http = builder.build();
  }

  public static SchemaRegistryClient create(RegistryClientSettings settings) {
    return new SchemaRegistryClient(Objects.requireNonNull(settings, "settings"));
  }

  /** The API root, as configured (never with credentials). */
  public String url() {
    return settings.apiRoot().toString();
  }

  public RegistryClientSettings settings() {
    return settings;
  }

  /**
   * The schema registered under {@code id}, retrying an unreachable registry with back-off (100 ms doubling to 1 s)
   * for at most the retry budget (plus the first request's timeout).
   *
   * @throws SchemaRegistryUnavailableException when the budget is spent without an answer
   */
  @Override
  public RegistryLookup schemaById(int id) {
    return withRetries(id, timeout -> attempt(id, timeout));
  }

  /**
   * The schema version a reference names ({@code GET /subjects/{subject}/versions/{version}}), retried like {@link
   * #schemaById}.
   *
   * @throws SchemaRegistryUnavailableException when the budget is spent without an answer
   */
  @Override
  public RegistryLookup referenced(RegistryLookup.Reference reference, int forId) {
    return withRetries(forId, timeout -> attemptReference(reference, forId, timeout));
  }

  private interface Attempt {
    RegistryLookup run(Duration timeout) throws NoAnswer;
  }

  private RegistryLookup withRetries(int id, Attempt attempt) {
    long start = System.nanoTime();
    long deadline = start + settings.retryBudget().toNanos();
    Duration backoff = FIRST_BACKOFF;
    int attempts = 0;
    while (true) {
      attempts++;
      // The first attempt gets the whole request timeout; retries only what is left of the budget (at least a
      // little, so that a retry can succeed at all). A lookup blocks for at most budget + request timeout.
      Duration left = Duration.ofNanos(deadline - System.nanoTime());
      Duration timeout = attempts == 1 || left.compareTo(settings.requestTimeout()) >= 0 ? settings.requestTimeout()
          : max(left, MIN_ATTEMPT_TIMEOUT);
      String reason;
      try {
        return answered(attempt.run(timeout));
      } catch (NoAnswer e) {
        reason = e.getMessage();
        unanswered(id, reason);
      }
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new SchemaRegistryUnavailableException(url(), id, reason + " (" + attempts
            + (attempts == 1 ? " attempt" : " attempts") + " in " + Duration.ofNanos(System.nanoTime() - start)
            .toMillis() + " ms)");
      }
      if (!pause(Math.min(backoff.toMillis(), Math.max(1, remaining / 1_000_000)))) {
        throw new SchemaRegistryUnavailableException(url(), id, reason + " (the client was closed or interrupted"
            + " while waiting to retry)");
      }
      backoff = min(backoff.multipliedBy(2), MAX_BACKOFF);
    }
  }

  /** Ends every retry wait at once, so that a stream thread waiting for the registry lets the service close. */
  @Override
  public void close() {
    synchronized (closeLock) {
      closed = true;
      closeLock.notifyAll();
    }
  }

  /** Waits {@code millis} unless closed or interrupted meanwhile; false then. */
  private boolean pause(long millis) {
    long until = System.nanoTime() + millis * 1_000_000;
    synchronized (closeLock) {
      try {
        for (long left = until - System.nanoTime(); !closed && left > 0; left = until - System.nanoTime()) {
          closeLock.wait(Math.max(1, left / 1_000_000));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      return !closed;
    }
  }

  /**
   * One attempt, without retries: what a health check uses to learn whether the registry answers again.
   *
   * @throws SchemaRegistryUnavailableException when it does not
   */
  public RegistryLookup probe(int id) {
    try {
      return answered(attempt(id, settings.requestTimeout()));
    } catch (NoAnswer e) {
      unanswered(id, e.getMessage());
      throw new SchemaRegistryUnavailableException(url(), id, e.getMessage());
    }
  }

  /**
   * Registers {@code schema} under {@code subject} (or finds it there) and returns its id, as a Confluent
   * serializer with {@code auto.register.schemas} does.
   *
   * @throws IllegalStateException naming the registry and subject when the registry refuses or cannot be reached
   */
  public int register(String subject, Schema schema) {
    ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
    URI uri = URI.create(url() + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
        + "/versions");
    HttpRequest.Builder request = request(uri, settings.requestTimeout())
        .header("Content-Type", MEDIA_TYPE)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    String where = "schema registry " + url() + " did not register the schema under subject '" + subject + "'";
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(where + ": " + ioReason(e, settings.requestTimeout()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(where + ": interrupted", e);
    }
    JsonNode answer = parse(response.body());
    if (response.statusCode() == 200 && answer != null && answer.path("id").canConvertToInt()) {
      return answer.get("id").intValue();
    }
    throw new IllegalStateException(where + ": HTTP " + response.statusCode() + message(answer, response.body()));
  }

  /**
   * Why the registry gave no answer to the latest request, and since when, while that is so; null once it answers.
   */
  public String problem() {
    Problem p = problem.get();
    return p == null ? null : p.sentence() + " (since " + p.since() + ")";
  }

  /** Lookups the registry answered with a schema, since the start. */
  public long lookupsFound() {
    return found.sum();
  }

  /** Lookups the registry answered with "no such schema", since the start. */
  public long lookupsNotFound() {
    return notFound.sum();
  }

  /** Requests that got no answer (each retry counts), since the start. */
  public long failedAttempts() {
    return failedAttempts.sum();
  }

  @Override
  public String toString() {
    return "SchemaRegistryClient[" + settings + "]";
  }

  // ---- one request

  private RegistryLookup attempt(int id, Duration timeout) throws NoAnswer {
    return get(url() + "/schemas/ids/" + id, id, timeout, List.of(SCHEMA_NOT_FOUND));
  }

  private RegistryLookup attemptReference(RegistryLookup.Reference reference, int forId, Duration timeout)
      throws NoAnswer {
    String path = "/subjects/" + URLEncoder.encode(reference.subject(), StandardCharsets.UTF_8).replace("+", "%20")
        + "/versions/" + reference.version();
    return get(url() + path, forId, timeout, REFERENCE_NOT_FOUND);
  }

  /** One GET of a schema; {@code notFoundCodes}: the Confluent error codes (with a 404) that mean "no such schema". */
  private RegistryLookup get(String uri, int id, Duration timeout, List<Integer> notFoundCodes) throws NoAnswer {
    HttpRequest request = request(URI.create(uri), timeout).GET().build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new NoAnswer(ioReason(e, timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NoAnswer("interrupted");
    }
    int status = response.statusCode();
    JsonNode body = parse(response.body());
    if (status == 200) {
      JsonNode schema = body == null ? null : body.get("schema");
      if (schema == null || !schema.isTextual()) {
        throw new NoAnswer("answered 200 without a schema in the body (is " + url() + " the root of a"
            + " Confluent-compatible API? Apicurio Registry serves it under /apis/ccompat/v7)");
      }
      JsonNode type = body.get("schemaType");
      return new RegistryLookup.Found(id, schema.textValue(), type != null && type.isTextual() ? type.textValue()
          : "AVRO", references(body.get("references")));
    }
    if (status == 404 && body != null && notFoundCodes.contains(body.path("error_code").asInt())) {
      return new RegistryLookup.NotFound(id, body.path("message").asText("not found"));
    }
    if (status == 404) {
      throw new NoAnswer("answered 404 without Confluent's error code " + notFoundCodes.get(0) + " (is " + url()
          + " the root of a Confluent-compatible API? Apicurio Registry serves it under /apis/ccompat/v7)");
    }
    if (status == 401 || status == 403) {
      throw new NoAnswer("refused the credentials (HTTP " + status + message(body, response.body()) + ")");
    }
    throw new NoAnswer("answered HTTP " + status + message(body, response.body()));
  }

  private static List<RegistryLookup.Reference> references(JsonNode node) throws NoAnswer {
    if (node == null || node.isNull()) {
      return List.of();
    }
    List<RegistryLookup.Reference> references = new ArrayList<>();
    for (JsonNode reference : node) {
      JsonNode name = reference.get("name");
      JsonNode subject = reference.get("subject");
      JsonNode version = reference.get("version");
      if (name == null || !name.isTextual() || subject == null || !subject.isTextual() || version == null
          || !version.canConvertToInt()) {
        throw new NoAnswer("answered a schema reference without name, subject and version: "
            + Objects.toString(reference));
      }
      references.add(new RegistryLookup.Reference(name.textValue(), subject.textValue(), version.intValue()));
    }
    return references;
  }

  private HttpRequest.Builder request(URI uri, Duration timeout) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .header("Accept", MEDIA_TYPE + ", application/json");
    settings.auth().authorizationHeader().ifPresent(value -> builder.header("Authorization", value));
    return builder;
  }

  private RegistryLookup answered(RegistryLookup lookup) {
    problem.set(null);
    if (lookup instanceof RegistryLookup.Found) {
      found.increment();
    } else {
      notFound.increment();
    }
    return lookup;
  }

  private void unanswered(int id, String reason) {
    failedAttempts.increment();
    String sentence = "schema registry " + url() + " gives no answer (" + reason + ") for schema id " + id
        + ", so ingestion waits for it; nothing is dead-lettered meanwhile";
    problem.updateAndGet(p -> new Problem(sentence, p == null ? Instant.now() : p.since()));
  }

  private static String ioReason(IOException e, Duration timeout) {
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within " + timeout.toMillis() + " ms";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within " + timeout.toMillis() + " ms";
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (e instanceof ConnectException || root instanceof ConnectException) {
      return "connection refused";
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** ": <the registry's message>", from its JSON error or the start of its body; empty when there is none. */
  private static String message(JsonNode json, String body) {
    String text = json != null && json.hasNonNull("message") ? json.get("message").asText() : body;
    if (text == null || text.isBlank()) {
      return "";
    }
    String line = text.replaceAll("\\s+", " ").strip();
    return ": " + (line.length() <= MAX_MESSAGE_CHARS ? line : line.substring(0, MAX_MESSAGE_CHARS) + "…");
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** A request that got no answer that counts; the message says why. */
  private static final class NoAnswer extends Exception {
    private static final long serialVersionUID = 1L;

    NoAnswer(String reason) {
      super(reason, null, false, false);
    }
  }
}
