package io.catalogviews.bench.http;

import io.javalin.Javalin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class HttpConnectionTest {

    private static Javalin app;

    @BeforeAll
    static void start() {
        app = Javalin.create(cfg -> {
            cfg.jetty.port = 0;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/fixed", ctx -> ctx.result("{\"a\":1}"));
            cfg.routes.get("/streamed", ctx -> ctx.result(new ByteArrayInputStream(
                    "x".repeat(100_000).getBytes(StandardCharsets.US_ASCII))));
            cfg.routes.post("/echo", ctx -> ctx.status(201).result(ctx.bodyAsBytes()));
        }).start();
    }

    @AfterAll
    static void stop() {
        app.stop();
    }

    @Test
    void shouldReadFixedLengthChunkedAndPostedAnswersOnOneKeptAliveConnection() throws Exception {
        try (HttpConnection c = new HttpConnection("127.0.0.1", app.port(), 5000)) {
            HttpConnection.Response fixed = c.exchange(HttpConnection.get("/fixed"), null);
            assertThat(fixed.status()).isEqualTo(200);
            assertThat(new String(fixed.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");

            HttpConnection.Response streamed = c.exchange(HttpConnection.get("/streamed"), null);
            assertThat(streamed.body()).hasSize(100_000);

            byte[] body = "{\"ids\":[\"p-1\"]}".getBytes(StandardCharsets.UTF_8);
            HttpConnection.Response echoed = c.exchange(HttpConnection.postJson("/echo", body), body);
            assertThat(echoed.status()).isEqualTo(201);
            assertThat(echoed.body()).isEqualTo(body);

            assertThat(c.exchange(HttpConnection.get("/missing"), null).status()).isEqualTo(404);
        }
    }
}
