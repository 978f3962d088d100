package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.ErrorBodies;
import io.catalogviews.api.http.Ids;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.catalogviews.api.product.ProductViewErrors.partitionUnavailable;
import static io.catalogviews.api.routing.Forwarding.isForwarded;

/**
 * {@code GET /v1/products/{id}}: answered from the local product view when this instance owns the key, otherwise
 * forwarded once to the owner; when the owner cannot answer, from a standby ({@link StaleReads}). The batch route
 * is {@link BatchRoutes}.
 */
public final class ProductRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(ProductRoutes.class);
    private static final Set<String> GET_PARAMS = Set.of("minVersion", "waitMs", "fresh");
    private static final long MAX_WAIT_MS = 10_000;

    private final KeyOwners owners;
    private final ProductQueries queries;
    private final Forwarder forwarder;
    private final VersionWaiters waiters;
    private final Duration forwardTimeout;
    private final Instance self;
    private final StaleReads stale;

    public ProductRoutes(KeyOwners owners, ProductQueries queries, Forwarder forwarder, VersionWaiters waiters,
                         Duration forwardTimeout, StaleReads stale) {
        this.stale = stale;
        this.owners = owners;
        this.queries = queries;
        this.forwarder = forwarder;
        this.waiters = waiters;
        this.forwardTimeout = forwardTimeout;
        this.self = owners.self();
    }

    // ---------------------------------------------------------------- GET /v1/products/{id}

    public void get(Context ctx) {
        String id = Ids.require("id", ctx.pathParam("id"));
        QueryParams params = QueryParams.of(ctx.queryParamMap(), GET_PARAMS);
        Long minVersion = params.longInRange("minVersion", 1, Long.MAX_VALUE, null);
        long waitMs = params.longInRange("waitMs", 0, MAX_WAIT_MS, 0L);
        boolean fresh = "true".equals(params.booleanText("fresh"));
        if (StaleReads.isReplicaRead(ctx)) {
            answerFromLocalReplica(ctx, id, minVersion);
            return;
        }
        Ownership ownership = owners.ownerOfProduct(id);
        if (ownership.active().isEmpty()) {
            failover(ctx, id, ownership, minVersion, fresh, partitionUnavailable(ownership.partition()));
            return;
        }
        Instance owner = ownership.active().get();
        if (!owner.equals(self)) {
            if (isForwarded(ctx)) {
                // Metadata moved while the request travelled: refuse, never forward a second time.
                throw partitionUnavailable(ownership.partition());
            }
            String query = ctx.queryString();
            String target = ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
            Duration timeout = forwardTimeout.plusMillis(waitMs);
            CompletableFuture<Void> relayed = forwarder.get(owner, target, ctx.header("If-None-Match"), timeout)
                    .handle((response, failure) -> {
                        ApiException refusal = failure != null ? Responses.toApiException(failure)
                                : response.status() == 503 ? partitionUnavailable(ownership.partition()) : null;
                        if (refusal == null) {
                            relay(ctx, response);
                            return CompletableFuture.<Void>completedFuture(null);
                        }
                        return failoverLater(ctx, id, ownership, minVersion, fresh, refusal);
                    }).thenCompose(f -> f);
            Responses.later(ctx, relayed);
            return;
        }
        ProductLookup lookup = queries.get(id);
        if (lookup instanceof ProductLookup.Failed failed) {
            failover(ctx, id, ownership, minVersion, fresh, unavailable(failed.failure()));
            return;
        }
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion) && waitMs > 0) {
            long min = minVersion;
            Responses.later(ctx, waiters.await(id, min, System.currentTimeMillis() + waitMs)
                    .thenAccept(later -> answer(ctx, later, minVersion)));
            return;
        }
        answer(ctx, lookup, minVersion);
    }

    /**
     * The active owner cannot answer: serve from a standby that is close enough to its changelog, marked
     * {@code X-Stale: true} with its lag, unless the caller asked for {@code fresh=true}; otherwise refuse.
     */
    private void failover(Context ctx, String id, Ownership ownership, Long minVersion, boolean fresh,
                          ApiException refusal) {
        Responses.later(ctx, failoverLater(ctx, id, ownership, minVersion, fresh, refusal));
    }

    private CompletableFuture<Void> failoverLater(Context ctx, String id, Ownership ownership, Long minVersion,
                                                  boolean fresh, ApiException refusal) {
        Instance standby = stale.standby(ownership, fresh, isForwarded(ctx)).orElse(null);
        if (standby == null) {
            return CompletableFuture.failedFuture(refusal);
        }
        if (standby.equals(self)) {
            try {
                answerFromLocalReplica(ctx, id, minVersion);
                return CompletableFuture.completedFuture(null);
            } catch (ApiException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        String query = ctx.queryString();
        String target = ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
        return forwarder.getReplica(standby, target, forwardTimeout)
                .thenAccept(response -> {
                    if (response.status() == 503) {
                        throw refusal;
                    }
                    relay(ctx, response);
                });
    }

    /** Reads this instance's own copy (active or standby), refusing when it lags more than allowed. */
    private void answerFromLocalReplica(Context ctx, String id, Long minVersion) {
        ProductQueries.ReplicaRead read = queries.getFromAnyReplica(id);
        if (read.lookup() instanceof ProductLookup.Failed failed) {
            throw unavailable(failed.failure());
        }
        if (!stale.closeEnough(read.lagRecords())) {
            throw StaleReads.tooFarBehind();
        }
        StaleReads.mark(ctx, read.lagRecords());
        answer(ctx, read.lookup(), minVersion);
    }

    private void answer(Context ctx, ProductLookup lookup, Long minVersion) {
        if (lookup instanceof ProductLookup.Failed failed) {
            throw unavailable(failed.failure());
        }
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion)) {
            throw ApiException.versionNotReached(minVersion, lookup.currentVersion());
        }
        ctx.header(Forwarding.SERVED_BY, self.hostPort());
        if (lookup instanceof ProductLookup.Found found) {
            String etag = "\"" + found.version() + "\"";
            ctx.header("ETag", etag);
            if (matches(ctx.header("If-None-Match"), etag)) {
                ctx.status(304);
                return;
            }
            Responses.json(ctx, 200, found.json());
            return;
        }
        throw ApiException.notFound("product '" + ctx.pathParam("id") + "' does not exist");
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || c.equals(etag) || c.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    private static void relay(Context ctx, ForwardedResponse response) {
        for (String header : List.of("ETag", Forwarding.SERVED_BY, "Retry-After", "Content-Type", Forwarding.STALE,
                Forwarding.LAG_RECORDS)) {
            response.header(header).ifPresent(value -> ctx.header(header, value));
        }
        ctx.status(response.status());
        if (response.status() >= 400) {
            // The owner already wrote the contract's error body: keep it (not Javalin's generic 404/405 page).
            ctx.attribute(Responses.ERROR_WRITTEN, Boolean.TRUE);
        }
        if (response.status() != 304) {
            ctx.result(response.body());
        }
    }

    // ---------------------------------------------------------------- shared

    private static ApiException unavailable(QueryFailure failure) {
        LOG.debug("Local read refused: {}", failure.message());
        return ApiException.unavailable("the product view cannot be read on its owner now ("
                + (failure.kind() == QueryFailure.Kind.RETRY_LATER ? "rebalancing or restoring" : "moving")
                + "); retry shortly", 1);
    }

}
