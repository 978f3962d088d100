package io.catalogviews.api.operations;

import io.catalogviews.api.http.DirectAnswers;
import io.catalogviews.api.logging.RequestLog;
import io.catalogviews.api.metrics.ApiMetrics;
import io.catalogviews.api.metrics.MetricsEndpoint;
import io.catalogviews.api.openapi.OpenApiDocument;
import io.catalogviews.api.routing.ForwardObserver;
import io.catalogviews.api.security.AdminToken;
import io.javalin.config.JavalinConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The operator-facing parts of the HTTP API, installed into the server's configuration in one call:
 * {@code GET /metrics} and the HTTP request metrics, the forwarding metrics, {@code GET /openapi.json}, the
 * optional admin token on {@link #PROTECTED_PATHS}, and the optional request log.
 */
public final class Operations {

    /** The routes the admin token protects, when one is configured. */
    public static final List<String> PROTECTED_PATHS = List.of(MetricsEndpoint.PATH, "/v1/cluster");

    private final ApiMetrics metrics;
    private final Supplier<String> scrape;
    private final AdminToken adminToken;
    private final boolean requestLog;
    private final OpenApiDocument openApi = OpenApiDocument.load();

    /**
     * @param metrics    where HTTP and forwarding metrics go
     * @param scrape     renders every metric of the instance as Prometheus text
     * @param adminToken required on {@link #PROTECTED_PATHS} when configured
     * @param requestLog whether to log one line per request ({@link RequestLog})
     */
    public Operations(ApiMetrics metrics, Supplier<String> scrape, AdminToken adminToken, boolean requestLog) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.scrape = Objects.requireNonNull(scrape, "scrape");
        this.adminToken = Objects.requireNonNull(adminToken, "adminToken");
        this.requestLog = requestLog;
    }

    /** HTTP metrics only (a registry of their own), no token, no request log: for servers started bare. */
    public static Operations defaults() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return new Operations(new ApiMetrics(registry), registry::scrape, AdminToken.none(), false);
    }

    /** Registers the routes, the token check and the request loggers. */
    public void install(JavalinConfig cfg) {
        cfg.requestLogger.http(metrics::record);
        if (requestLog) {
            cfg.requestLogger.http(RequestLog::log);
        }
        if (adminToken.isRequired()) {
            for (String path : PROTECTED_PATHS) {
                cfg.routes.before(path, adminToken::check);
            }
        }
        MetricsEndpoint endpoint = new MetricsEndpoint(scrape);
        cfg.routes.get(MetricsEndpoint.PATH, endpoint::serve);
        cfg.routes.get(OpenApiDocument.PATH, openApi::serve);
    }

    /**
     * Where answers written ahead of the routes ({@link DirectAnswers}) are counted; empty
     * when the request log is on, which logs from the routes only: then every request takes them.
     */
    public Optional<DirectAnswers.Observer> directAnswers() {
        return requestLog ? Optional.empty() : Optional.of(metrics::answeredDirectly);
    }

    /** Give it to the forwarder, so forwarded calls are measured. */
    public ForwardObserver forwardObserver() {
        return metrics.forwardObserver();
    }
}
