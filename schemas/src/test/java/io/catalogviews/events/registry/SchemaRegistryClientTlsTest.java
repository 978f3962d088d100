package io.catalogviews.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS options against a real HTTPS server whose certificate the JDK's keytool makes for the test. */
class SchemaRegistryClientTlsTest {
  private static final String PASSWORD = "changeit";

  @TempDir
  static Path dir;
  private HttpsServer server;
  private String root;

  @BeforeAll
  static void makeCertificate() throws Exception {
    keytool("-genkeypair", "-alias", "registry", "-keyalg", "EC", "-groupname", "secp256r1", "-storetype", "PKCS12",
        "-keystore", dir.resolve("server.p12").toString(), "-storepass", PASSWORD, "-dname", "CN=localhost",
        "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2");
    keytool("-exportcert", "-alias", "registry", "-keystore", dir.resolve("server.p12").toString(), "-storepass",
        PASSWORD, "-file", dir.resolve("server.crt").toString());
    keytool("-importcert", "-noprompt", "-alias", "registry", "-file", dir.resolve("server.crt").toString(),
        "-keystore", dir.resolve("trust.p12").toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
  }

  @BeforeEach
  void startHttpsServer() throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
      keys.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keyManagers.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/", exchange -> {
      byte[] body = "{\"schema\":\"\\\"string\\\"\"}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    root = "https://localhost:" + server.getAddress().getPort();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void shouldTrustTheRegistryWhenItsCertificateIsInTheConfiguredTrustStore() {
    RegistryClientSettings settings = RegistryClientSettings.fromProperties(root, Map.of(
        "schema.registry.ssl.truststore.location", dir.resolve("trust.p12").toString(),
        "schema.registry.ssl.truststore.password", PASSWORD,
        "schema.registry.ssl.truststore.type", "PKCS12"), "test");

    assertThat(SchemaRegistryClient.create(settings).schemaById(1))
        .isEqualTo(new RegistryLookup.Found(1, "\"string\"", "AVRO"));
  }

  @Test
  void shouldGiveNoAnswerRatherThanUnknownWhenTheCertificateIsNotTrusted() {
    SchemaRegistryClient client = SchemaRegistryClient.create(RegistryClientSettings.of(root)
        .withRetryBudget(Duration.ZERO));

    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("unable to find valid certification path");
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool " + command + " failed: " + output);
    }
  }
}
