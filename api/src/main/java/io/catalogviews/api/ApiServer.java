package io.catalogviews.api;

import io.catalogviews.api.cluster.ClusterRoutes;
import io.catalogviews.api.health.Readiness;
import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.ErrorBodies;
import io.catalogviews.api.http.JsonErrorHandler;
import io.catalogviews.api.http.DirectAnswers;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.listing.CursorCodec;
import io.catalogviews.api.listing.ListingInternalRoutes;
import io.catalogviews.api.listing.ListingRoutes;
import io.catalogviews.api.operations.Operations;
import io.catalogviews.api.product.BatchRoutes;
import io.catalogviews.api.product.ProductRoutes;
import io.catalogviews.api.product.VersionWaiters;
import io.catalogviews.api.routing.BoundedPeers;
import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.KeyedRouter;
import io.catalogviews.api.routing.PeerHeaders;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP API: routes, error mapping and the Jetty server. Talks to the views only through query
 * interfaces ({@link KeyOwners}, {@link ProductQueries}).
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final byte[] LIVE = "{\"status\":\"live\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] READY = "{\"status\":\"ready\"}".getBytes(StandardCharsets.UTF_8);
    /**
     * How long a stop waits for the requests in flight: longer than a forward's timeout (2 s), so that a read this
     * instance forwarded before it began to stop is answered, not cut off.
     */
    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(5);
    /** Javalin's template of a product read: the request metrics' route label for it. */
    private static final String PRODUCT_ROUTE = ProductRoutes.PRODUCT_PATH_PREFIX + "{id}";

    private final Javalin app;
    private final Forwarder forwarder;
    private final BoundedPeers peers;
    private final VersionWaiters waiters;
    private final AtomicBoolean stopping;

    private ApiServer(Javalin app, Forwarder forwarder, BoundedPeers peers, VersionWaiters waiters,
                      AtomicBoolean stopping) {
        this.app = app;
        this.forwarder = forwarder;
        this.peers = peers;
        this.waiters = waiters;
        this.stopping = stopping;
    }

    public static ApiServer start(ApiSettings settings, ViewAccess views, CursorCodec cursors, PeerHeaders peers,
                                  Readiness readiness) {
        return start(settings, views, cursors, peers, readiness, Operations.defaults());
    }

    /**
     * @param cursors    makes and checks listing cursors (with the cursor secrets)
     * @param peers      signs and verifies the internal headers between instances (with the cluster secrets)
     * @param operations {@code /metrics}, {@code /openapi.json}, metrics, admin token and request log
     */
    public static ApiServer start(ApiSettings settings, ViewAccess views, CursorCodec cursors, PeerHeaders peers,
                                  Readiness readiness, Operations operations) {
        KeyOwners owners = views.owners();
        ProductQueries queries = views.products();
        ListingQueries listingQueries = views.listings();
        Forwarder forwarder = new Forwarder(owners.self(), Duration.ofSeconds(2), settings.forwarderThreads(),
                operations.forwardObserver(), peers);
        BoundedPeers bounded = new BoundedPeers(forwarder, settings.maxInFlightForwards());
        VersionWaiters waiters = new VersionWaiters(queries, views.commits(),
                id -> KeyPartitioner.partitionOf(id, owners.partitions()), settings.maxWaiters());
        StaleReads stale = new StaleReads(owners.self(), settings.maxStaleLagRecords());
        KeyedRouter keyed = new KeyedRouter(owners.self(), bounded, stale, settings.forwardTimeout());
        FanOutRouter fanOut = new FanOutRouter(owners.self(), bounded, stale, settings.forwardTimeout());
        ProductRoutes products = new ProductRoutes(owners, queries, waiters, keyed);
        BatchRoutes batch = new BatchRoutes(owners, queries, fanOut);
        ListingRoutes listing = new ListingRoutes(owners, listingQueries, cursors, fanOut);
        ListingInternalRoutes listingInternal = new ListingInternalRoutes(owners, listingQueries, fanOut);
        ClusterRoutes cluster = new ClusterRoutes(views.cluster(), forwarder);
        AtomicBoolean stopping = new AtomicBoolean();
        Javalin app = Javalin.create(cfg -> {
            cfg.jetty.port = settings.port();
            cfg.startup.showJavalinBanner = false;
            cfg.startup.showOldJavalinVersionWarning = false;
            cfg.http.maxRequestSize = settings.maxRequestBytes();
            cfg.http.prefer405over404 = true;
            cfg.jetty.threadPool = threadPool(settings);
            cfg.jetty.modifyServer(server -> {
                server.setErrorHandler(new JsonErrorHandler());
                bound(server, settings);
                // Javalin puts its handlers inside the innermost wrapper: a stop lets the requests in flight finish
                // (and refuses new ones with 503) instead of cutting them off, which peers relayed as 500s.
                GracefulHandler graceful = new GracefulHandler();
                directAnswers(settings, owners, products, listing, stopping, operations)
                        .ifPresent(graceful::setHandler);
                server.setHandler(graceful);
                server.setStopTimeout(GRACEFUL_STOP.toMillis());
            });
            operations.install(cfg);
            cfg.routes.before(ctx -> refuseWhileStopping(ctx, stopping));
            cfg.routes.before(peers::verify);
            cfg.routes.get(PRODUCT_ROUTE, products::get);
            cfg.routes.post("/v1/products/batch", batch::batch);
            cfg.routes.post(BatchRoutes.INTERNAL_BATCH_PATH, batch::internalBatch);
            cfg.routes.get(ListingRoutes.PRODUCTS_PATH, listing::products);
            cfg.routes.get(ListingRoutes.FACETS_PATH, listing::facets);
            cfg.routes.get(ListingRoutes.CATEGORIES_PATH, listing::categories);
            cfg.routes.post(ListingRoutes.INTERNAL_CATALOG_PAGE_PATH, listingInternal::catalogPage);
            cfg.routes.post(ListingRoutes.INTERNAL_CATALOG_FACETS_PATH, listingInternal::catalogFacets);
            cfg.routes.post(ListingRoutes.INTERNAL_CATEGORIES_PATH, listingInternal::categories);
            cfg.routes.get(ClusterRoutes.CLUSTER_PATH, cluster::cluster);
            cfg.routes.get(ClusterRoutes.INTERNAL_STATE_PATH, cluster::internalState);
            cfg.routes.get("/health/live", ctx -> Responses.json(ctx, 200, LIVE));
            cfg.routes.get("/health/ready", ctx -> {
                if (!readiness.isReady()) {
                    String reason = readiness.notReadyReason();
                    throw ApiException.unavailable(reason != null ? "this instance is not ready: " + reason
                            : "this instance is not ready (starting, restoring, failed or shutting down)", 1);
                }
                Responses.json(ctx, 200, READY);
            });
            cfg.routes.exception(ApiException.class, (e, ctx) -> Responses.error(ctx, e));
            cfg.routes.exception(HttpResponseException.class, (e, ctx) -> Responses.error(ctx,
                    ApiException.ofStatus(e.getStatus(), ErrorBodies.codeForStatus(e.getStatus()),
                            httpLayerMessage(e.getStatus()))));
            cfg.routes.exception(Exception.class, (e, ctx) -> {
                // A body cut short or badly chunked is the client's fault (4xx), not the service's.
                ApiException clientFault = Responses.clientFault(e).orElse(null);
                if (clientFault != null) {
                    LOG.debug("Request {} {} could not be read", ctx.method(), ctx.path(), e);
                    Responses.error(ctx, clientFault);
                    return;
                }
                LOG.error("Request {} {} failed", ctx.method(), ctx.path(), e);
                Responses.error(ctx, ApiException.ofStatus(500, "internal_error",
                        "the request failed inside the service"));
            });
            cfg.routes.error(404, ctx -> notMatched(ctx, 404));
            cfg.routes.error(405, ctx -> notMatched(ctx, 405));
        });
        app.start();
        LOG.info("HTTP API listening on port {}", app.port());
        return new ApiServer(app, forwarder, bounded, waiters, stopping);
    }

    /**
     * The handler that answers plain reads directly, ahead of Javalin ({@link DirectAnswers}): a category's kept
     * pages and facets on the selector thread, a product by id on a pool thread. None when the settings turn it off
     * or the request log is on.
     */
    private static Optional<DirectAnswers> directAnswers(ApiSettings settings, KeyOwners owners, ProductRoutes products,
                                                         ListingRoutes listing, AtomicBoolean stopping,
                                                         Operations operations) {
        if (!settings.directAnswers()) {
            return Optional.empty();
        }
        List<DirectAnswers.Route> routes = List.of(
                new DirectAnswers.Route(ListingRoutes.PRODUCTS_PATH, false, false, ListingRoutes.PRODUCTS_PATH,
                        listing::keptPage),
                new DirectAnswers.Route(ListingRoutes.FACETS_PATH, false, false, ListingRoutes.FACETS_PATH,
                        listing::keptFacets),
                new DirectAnswers.Route(ProductRoutes.PRODUCT_PATH_PREFIX, true, true, PRODUCT_ROUTE,
                        products::plainAnswer));
        return operations.directAnswers().map(observer -> new DirectAnswers(routes, owners.self().hostPort(),
                stopping::get, observer));
    }

    /**
     * Once HTTP begins to stop, every read (public or from a peer) is refused with 503 and Retry-After, so that
     * clients and peers go to another instance or copy; the health probes and metrics still answer. Jetty's graceful
     * stop refuses new requests too, but only from {@code app.stop()}: before it, {@link #close()} has closed the
     * version waiters, whose stopped thread would refuse a {@code minVersion} read's timer (a 500).
     */
    private static void refuseWhileStopping(Context ctx, AtomicBoolean stopping) {
        if (stopping.get() && !ctx.path().startsWith("/health/") && !ctx.path().equals("/metrics")) {
            throw ApiException.unavailable("this instance is shutting down; retry on another instance", 1);
        }
    }

    /**
     * Enough threads that connections cannot hold them all: over HTTP/1.1 a connection has one request at a time,
     * so a client that does not read its answer holds at most the one thread writing it (Javalin writes answers
     * blocking, and {@link Responses#later} keeps asynchronous answers on these threads too).
     */
    private static QueuedThreadPool threadPool(ApiSettings settings) {
        QueuedThreadPool pool = new QueuedThreadPool(settings.httpThreads(), 8, 60_000);
        pool.setName("http");
        return pool;
    }

    /**
     * At most {@code maxConnections} connections (more wait to be accepted) and an idle timeout on each: a
     * connection that makes no progress for that long is closed, which also ends a write blocked on it.
     */
    private static void bound(Server server, ApiSettings settings) {
        server.addBean(new NetworkConnectionLimit(settings.maxConnections(), server));
        // Javalin adds its connector after this callback; set the timeout once the server starts, before it accepts.
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                for (Connector connector : server.getConnectors()) {
                    if (connector instanceof AbstractConnector network) {
                        network.setIdleTimeout(settings.idleTimeout().toMillis());
                    }
                }
            }
        });
    }

    /** Javalin's own 404/405 for unknown routes and methods, in the contract's shape. */
    private static void notMatched(Context ctx, int status) {
        if (Boolean.TRUE.equals(ctx.attribute(Responses.ERROR_WRITTEN))) {
            return; // already a contract error written by a handler (for example 404 not_found of a product)
        }
        ApiException e = status == 404
                ? ApiException.notFound("no route for " + ctx.method() + " " + abbreviate(ctx.path()))
                : ApiException.methodNotAllowed("method " + ctx.method() + " is not allowed on " + abbreviate(ctx.path()));
        Responses.error(ctx, e);
    }

    private static String httpLayerMessage(int status) {
        return switch (status) {
            case 413 -> "the request body is too large";
            case 415 -> "unsupported media type";
            case 408 -> "the request timed out";
            default -> "the request failed with status " + status;
        };
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }

    public int port() {
        return app.port();
    }

    /** Requests waiting for a version ({@code minVersion} with {@code waitMs}) now. */
    public int waitingForVersions() {
        return waiters.waiting();
    }

    /** Calls to other instances in flight now (forwards, scatter-gather parts, standby reads). */
    public int forwardsInFlight() {
        return peers.inFlight();
    }

    /** Every HTTP route registered, as {@code "GET /v1/products/{id}"} (method and path template). */
    public List<String> routes() {
        return app.unsafe.internalRouter.allHttpHandlers().stream()
                .filter(parsed -> parsed.endpoint.method.isHttpMethod())
                .map(parsed -> parsed.endpoint.method.name() + " " + parsed.endpoint.path)
                .toList();
    }

    /**
     * Stops HTTP, the last step of a clean stop (the instance answered and forwarded while its partitions moved):
     * new requests are refused with 503 and Retry-After, so that clients and peers go to another instance, and the
     * requests in flight finish (up to {@link #GRACEFUL_STOP}) before the connections close.
     */
    @Override
    public void close() {
        stopping.set(true);
        waiters.close();
        app.stop();
        forwarder.close();
    }
}
