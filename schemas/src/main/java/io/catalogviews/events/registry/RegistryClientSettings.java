package io.catalogviews.events.registry;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How to reach one schema registry's Confluent-compatible REST API.
 *
 * <p>{@link #fromProperties} reads the keys a Confluent serializer's configuration uses, so that a shop can hand over
 * the file its producers already have: {@code basic.auth.user.info}, {@code bearer.auth.token} and the Kafka-style
 * TLS keys {@code ssl.truststore.*}, {@code ssl.keystore.*}, {@code ssl.key.password}, each also accepted with the
 * {@code schema.registry.} prefix Confluent's clients use. Hostname verification is always on.
 *
 * @param apiRoot the Confluent-compatible API root, without a trailing slash ({@code http://registry:8081};
 *     Apicurio Registry serves it under {@code /apis/ccompat/v7})
 * @param auth how to authenticate
 * @param sslContext TLS trust and client keys for {@code https} roots; null for the JVM's defaults
 * @param requestTimeout the longest one request may take, connecting included
 * @param retryBudget how long one lookup retries an unreachable registry before it gives up with {@link
 *     SchemaRegistryUnavailableException} (default 4 minutes): the stream thread waits that long for the registry
 *     rather than fail. The service caps it below the stream thread's {@code max.poll.interval.ms}, past which the
 *     member would be dropped from the group
 */
public record RegistryClientSettings(URI apiRoot, RegistryAuth auth, SSLContext sslContext, Duration requestTimeout,
    Duration retryBudget) {

  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_RETRY_BUDGET = Duration.ofMinutes(4);
  /** The keys {@link #fromProperties} understands (each also with the {@code schema.registry.} prefix). */
  public static final List<String> KEYS = List.of("basic.auth.credentials.source", "basic.auth.user.info",
      "bearer.auth.credentials.source", "bearer.auth.token", "ssl.truststore.location", "ssl.truststore.password",
      "ssl.truststore.type", "ssl.keystore.location", "ssl.keystore.password", "ssl.keystore.type",
      "ssl.key.password", "request.timeout.ms", "lookup.retry.budget.ms");
  private static final String PREFIX = "schema.registry.";

  public RegistryClientSettings {
    Objects.requireNonNull(apiRoot, "apiRoot");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(retryBudget, "retryBudget");
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("the registry request timeout must be positive, was " + requestTimeout);
    }
    if (retryBudget.isNegative()) {
      throw new IllegalArgumentException("the registry retry budget must not be negative, was " + retryBudget);
    }
  }

  /** No authentication, the JVM's TLS defaults, default timeouts. */
  public static RegistryClientSettings of(String url) {
    return new RegistryClientSettings(apiRoot(url), RegistryAuth.NONE, null, DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_RETRY_BUDGET);
  }

  /**
   * Settings from Confluent-style client properties.
   *
   * @param url the Confluent-compatible API root
   * @param properties the keys of {@link #KEYS}, optionally prefixed {@code schema.registry.}
   * @param source where the properties came from, for error messages ({@code --schema-registry-config file})
   * @throws IllegalArgumentException naming the key (or the URL) when a value is unusable or a key is unknown
   */
  public static RegistryClientSettings fromProperties(String url, Map<String, String> properties, String source) {
    Map<String, String> p = new HashMap<>();
    properties.forEach((key, value) -> {
      String k = key.startsWith(PREFIX) ? key.substring(PREFIX.length()) : key;
      if (!KEYS.contains(k)) {
        throw new IllegalArgumentException(source + ": unknown schema registry client property '" + key
            + "'; known: " + KEYS);
      }
      p.put(k, value.strip());
    });
    expect(p, "basic.auth.credentials.source", "USER_INFO", source);
    expect(p, "bearer.auth.credentials.source", "STATIC_TOKEN", source);
    String userInfo = p.get("basic.auth.user.info");
    String token = p.get("bearer.auth.token");
    if (userInfo != null && token != null) {
      throw new IllegalArgumentException(source + ": set basic.auth.user.info or bearer.auth.token, not both");
    }
    RegistryAuth auth;
    try {
      auth = userInfo != null ? new RegistryAuth.Basic(userInfo)
          : token != null ? new RegistryAuth.Bearer(token) : RegistryAuth.NONE;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
    return new RegistryClientSettings(apiRoot(url), auth, sslContext(p, source),
        millis(p, "request.timeout.ms", DEFAULT_REQUEST_TIMEOUT, source),
        millis(p, "lookup.retry.budget.ms", DEFAULT_RETRY_BUDGET, source));
  }

  /** These settings with another authentication. */
  public RegistryClientSettings withAuth(RegistryAuth newAuth) {
    return new RegistryClientSettings(apiRoot, newAuth, sslContext, requestTimeout, retryBudget);
  }

  /** These settings with another retry budget (tests shorten it). */
  public RegistryClientSettings withRetryBudget(Duration budget) {
    return new RegistryClientSettings(apiRoot, auth, sslContext, requestTimeout, budget);
  }

  /**
   * The API root of {@code url}: {@code http} or {@code https}, a host, no query, no trailing slash.
   *
   * @throws IllegalArgumentException naming the URL when it is not one
   */
  public static URI apiRoot(String url) {
    URI uri;
    try {
      uri = URI.create(Objects.requireNonNull(url, "url").strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("schema registry URL '" + url + "' is not a URL: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme();
    if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("schema registry URL must look like http(s)://host:port[/path], the root of"
          + " its Confluent-compatible API (Apicurio Registry: http://host:8080/apis/ccompat/v7), was '" + url + "'");
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("schema registry URL must not carry credentials ('" + uri.getHost()
          + "'); use basic.auth.user.info in the schema registry config or its environment variable");
    }
    String text = uri.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    return URI.create(text);
  }

  @Override
  public String toString() {
    return "RegistryClientSettings[" + apiRoot + ", auth=" + auth + ", tls=" + (sslContext == null ? "default" : "custom")
        + ", requestTimeout=" + requestTimeout + ", retryBudget=" + retryBudget + "]";
  }

  private static void expect(Map<String, String> p, String key, String only, String source) {
    String value = p.get(key);
    if (value != null && !value.equals(only)) {
      throw new IllegalArgumentException(source + ": " + key + " must be " + only + " (the only source supported),"
          + " was '" + value + "'");
    }
  }

  private static Duration millis(Map<String, String> p, String key, Duration fallback, String source) {
    String value = p.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long ms = Long.parseLong(value);
      if (ms < 0) {
        throw new NumberFormatException("negative");
      }
      return Duration.ofMillis(ms);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(source + ": " + key + " must be a number of milliseconds, was '" + value
          + "'", e);
    }
  }

  private static SSLContext sslContext(Map<String, String> p, String source) {
    String trustStore = p.get("ssl.truststore.location");
    String keyStore = p.get("ssl.keystore.location");
    if (trustStore == null && keyStore == null) {
      return null;
    }
    try {
      TrustManagerFactory trust = null;
      if (trustStore != null) {
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trustStore, p.get("ssl.truststore.type"), p.get("ssl.truststore.password"),
            "ssl.truststore.location", source));
      }
      KeyManagerFactory keys = null;
      if (keyStore != null) {
        String storePassword = p.get("ssl.keystore.password");
        String keyPassword = p.getOrDefault("ssl.key.password", storePassword);
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(load(keyStore, p.get("ssl.keystore.type"), storePassword, "ssl.keystore.location", source),
            keyPassword == null ? null : keyPassword.toCharArray());
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(source + ": cannot set up TLS for the schema registry: " + e.getMessage(), e);
    }
  }

  private static KeyStore load(String location, String type, String password, String key, String source)
      throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type == null || type.isBlank() ? KeyStore.getDefaultType() : type);
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      store.load(in, password == null ? null : password.toCharArray());
      return store;
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ": " + key + " " + location + " cannot be read: " + e.getMessage(),
          e);
    }
  }
}
