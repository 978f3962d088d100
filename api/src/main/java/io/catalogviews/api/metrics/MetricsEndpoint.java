package io.catalogviews.api.metrics;

import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** {@code GET /metrics}: every metric of the instance in the Prometheus text exposition format 0.0.4. */
public final class MetricsEndpoint {

    public static final String PATH = "/metrics";
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final Supplier<String> scrape;

    public MetricsEndpoint(Supplier<String> scrape) {
        this.scrape = scrape;
    }

    public void serve(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        ctx.status(200).contentType(CONTENT_TYPE).result(scrape.get().getBytes(StandardCharsets.UTF_8));
    }
}
