package io.catalogviews.api.metrics;

import io.catalogviews.api.routing.ForwardObserver;
import io.catalogviews.views.routing.Instance;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP layer's metrics: every request by route template, method and status, and every forwarded call by
 * target instance and outcome, each as a latency histogram. Labels are bounded: the route is the matched
 * endpoint's template ({@code /v1/products/{id}}, never the raw path) or {@value #UNMATCHED}; methods outside
 * the common HTTP ones are {@code OTHER}; targets are instances from Kafka Streams metadata only.
 *
 * <p>Prometheus names: {@code http_server_requests_seconds{method,route,status}} and
 * {@code catalog_forwarded_requests_seconds{target,outcome}} (histograms: {@code _bucket}, {@code _count},
 * {@code _sum}, plus {@code _max}).
 */
public final class ApiMetrics {

    public static final String HTTP_REQUESTS = "http.server.requests";
    public static final String FORWARDED_REQUESTS = "catalog.forwarded.requests";
    /** The route label of a request that matched no route (404, 405). */
    public static final String UNMATCHED = "unmatched";

    /** Histogram buckets for answers served by this service: 1 ms .. 10 s. */
    static final Duration[] LATENCY_BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
            Duration.ofSeconds(10)};

    private final MeterRegistry registry;
    private final Map<RequestKey, Timer> requests = new ConcurrentHashMap<>();
    private final Map<ForwardKey, Timer> forwards = new ConcurrentHashMap<>();

    private record RequestKey(String method, String route, int status) {
    }

    private record ForwardKey(String target, ForwardObserver.Outcome outcome) {
    }

    public ApiMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A Javalin request logger that records the request: called once per request, after its answer. */
    public void record(Context ctx, Float executionTimeMs) {
        String route = route(ctx);
        HandlerType method = ctx.method();
        String methodLabel = HandlerType.commonHttp().contains(method) ? method.name() : "OTHER";
        long nanos = executionTimeMs == null ? 0 : (long) (executionTimeMs * 1_000_000.0);
        requestTimer(methodLabel, route, ctx.statusCode()).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a GET of {@code route} answered with 200 ahead of the routes ({@code DirectAnswers}). */
    public void answeredDirectly(String route, long nanos) {
        requestTimer("GET", route, 200).record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The matched endpoint's template; when a before-handler ended the request (401 of the admin token) no HTTP
     * endpoint ran, so the path of the last handler that did (an exact path, never a wildcard) names it.
     */
    private static String route(Context ctx) {
        Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
        if (endpoint != null) {
            return endpoint.path;
        }
        List<Endpoint> ran = ctx.endpoints().list();
        for (int i = ran.size() - 1; i >= 0; i--) {
            String path = ran.get(i).path;
            if (path != null && !path.isEmpty() && !path.contains("*")) {
                return path;
            }
        }
        return UNMATCHED;
    }

    /** Records forwarded calls; give it to the {@link io.catalogviews.api.routing.Forwarder}. */
    public ForwardObserver forwardObserver() {
        return this::forwarded;
    }

    private void forwarded(Instance target, ForwardObserver.Outcome outcome, long durationNanos) {
        forwards.computeIfAbsent(new ForwardKey(target.hostPort(), outcome), key -> Timer.builder(FORWARDED_REQUESTS)
                        .description("Reads forwarded to the instance that owns the data, by target and outcome")
                        .tag("target", key.target()).tag("outcome", key.outcome().label())
                        .serviceLevelObjectives(LATENCY_BUCKETS)
                        .register(registry))
                .record(Math.max(0, durationNanos), TimeUnit.NANOSECONDS);
    }

    Timer requestTimer(String method, String route, int status) {
        return requests.computeIfAbsent(new RequestKey(method, route, status), key -> Timer.builder(HTTP_REQUESTS)
                .description("HTTP requests by route template, method and status")
                .tag("method", key.method()).tag("route", key.route()).tag("status", Integer.toString(key.status()))
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry));
    }
}
