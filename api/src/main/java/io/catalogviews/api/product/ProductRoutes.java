package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Ids;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.KeyedRead;
import io.catalogviews.api.routing.KeyedRouter;
import io.catalogviews.api.routing.LocalRead;
import io.catalogviews.api.routing.ReadFailures;
import io.catalogviews.api.routing.ReplicaCopy;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /v1/products/{id}}: parses, lets the {@link KeyedRouter} find the copy that answers (the owner's, or a
 * standby's while the owner cannot), and renders the product with its {@code ETag}, 304, 404 or 409. The batch
 * route is {@link BatchRoutes}.
 */
public final class ProductRoutes {

    static final String VIEW = "product view";
    private static final Set<String> GET_PARAMS = Set.of("minVersion", "waitMs", StaleReads.FRESH_PARAM);
    private static final long MAX_WAIT_MS = 10_000;
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final KeyOwners owners;
    private final ProductQueries queries;
    private final VersionWaiters waiters;
    private final KeyedRouter router;

    public ProductRoutes(KeyOwners owners, ProductQueries queries, VersionWaiters waiters, KeyedRouter router) {
        this.owners = owners;
        this.queries = queries;
        this.waiters = waiters;
        this.router = router;
    }

    public void get(Context ctx) {
        String id = Ids.require("id", ctx.pathParam("id"));
        QueryParams params = QueryParams.of(ctx.queryParamMap(), GET_PARAMS);
        Long minVersion = params.longInRange("minVersion", 1, Long.MAX_VALUE, null);
        long waitMs = params.longInRange("waitMs", 0, MAX_WAIT_MS, 0L);
        boolean fresh = "true".equals(params.booleanText(StaleReads.FRESH_PARAM));
        router.route(ctx, KeyedRead.<ProductLookup>of(VIEW, () -> owners.ownerOfProduct(id),
                        () -> LocalRead.of(queries.get(id)), () -> ReplicaCopy.of(queries.getFromAnyReplica(id)),
                        (c, lookup, fromActive) -> answer(c, id, lookup, minVersion, fromActive ? waitMs : 0))
                .fresh(fresh).calleeWait(Duration.ofMillis(waitMs)));
    }

    /** Answers at once, or once the product reached {@code minVersion} or {@code waitMs} passed. */
    private CompletableFuture<Void> answer(Context ctx, String id, ProductLookup lookup, Long minVersion, long waitMs) {
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion) && waitMs > 0) {
            return waiters.await(id, minVersion, System.currentTimeMillis() + waitMs)
                    .thenAccept(later -> render(ctx, id, later, minVersion));
        }
        render(ctx, id, lookup, minVersion);
        return DONE;
    }

    private static void render(Context ctx, String id, ProductLookup lookup, Long minVersion) {
        if (lookup instanceof ProductLookup.Failed failed) {
            throw ReadFailures.refusal(failed.failure(), VIEW);
        }
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion)) {
            throw ApiException.versionNotReached(minVersion, lookup.currentVersion());
        }
        if (!(lookup instanceof ProductLookup.Found found)) {
            throw ReadFailures.notFound("product '" + id + "'");
        }
        String etag = "\"" + found.version() + "\"";
        ctx.header("ETag", etag);
        if (matches(ctx.header("If-None-Match"), etag)) {
            ctx.status(304);
            return;
        }
        Responses.json(ctx, 200, found.json());
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
}
