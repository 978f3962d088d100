package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.DirectAnswers;
import io.catalogviews.api.http.Ids;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.Deadline;
import io.catalogviews.api.routing.KeyedRead;
import io.catalogviews.api.routing.KeyedRouter;
import io.catalogviews.api.routing.LocalRead;
import io.catalogviews.api.routing.PeerCall;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.api.routing.ReadFailures;
import io.catalogviews.api.routing.ReplicaCopy;
import io.catalogviews.api.routing.RequestTarget;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /v1/products/{id}}: parses, lets the {@link KeyedRouter} find the copy that answers (the owner's, or a
 * standby's while the owner cannot), and renders the product with its {@code ETag}, 304, 404 or 409. A forwarded
 * request carries the parsed id, parameters and entity tags, encoded again. The batch route is {@link BatchRoutes}.
 */
public final class ProductRoutes {

    static final String VIEW = "product view";
    static final String PRODUCTS_PATH = "/v1/products";
    /** A product's path before its id. */
    public static final String PRODUCT_PATH_PREFIX = PRODUCTS_PATH + "/";
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
        List<String> entityTags = EntityTags.parse(ctx.header("If-None-Match"));
        PeerRequest request = PeerRequest.get(RequestTarget.path(PRODUCTS_PATH).segment(id)
                        .param("minVersion", minVersion).param("waitMs", waitMs > 0 ? waitMs : null)
                        .param(StaleReads.FRESH_PARAM, fresh ? "true" : null))
                .ifNoneMatch(EntityTags.header(entityTags));
        router.route(ctx, KeyedRead.<ProductLookup>of(VIEW, request, () -> owners.ownerOfProduct(id),
                        () -> LocalRead.of(queries.get(id)), () -> ReplicaCopy.of(queries.getFromAnyReplica(id)),
                        (c, lookup, fromActive) -> answer(c, id, lookup, minVersion, fromActive ? waitMs : 0,
                                entityTags))
                .fresh(fresh).calleeWait(Duration.ofMillis(waitMs)));
    }

    /**
     * The answer {@link #get} would write for a GET of {@code path} (a product's) with {@code query} and no
     * {@code If-None-Match} when it is a 200 read here from the active copy: no parameter, a valid id, the partition
     * active on this instance, the product found. Null for anything else (the route answers it). Reads the store:
     * call it where a read may block ({@link io.catalogviews.api.http.DirectAnswers}).
     */
    public DirectAnswers.Answer plainAnswer(String path, Map<String, List<String>> query) {
        String id = path.substring(PRODUCT_PATH_PREFIX.length());
        if (!query.isEmpty() || !Ids.isValid(id)
                || !owners.self().equals(owners.ownerOfProduct(id).active().orElse(null))) {
            return null;
        }
        return queries.get(id) instanceof ProductLookup.Found found
                ? new DirectAnswers.Answer(found.json(), etag(found)) : null;
    }

    /**
     * Answers at once, or once the product reached {@code minVersion} or {@code waitMs} passed. A wait ends at the
     * deadline of the instance that forwarded the request, too: then the answer is 504, as that instance has given
     * up waiting already.
     */
    private CompletableFuture<Void> answer(Context ctx, String id, ProductLookup lookup, Long minVersion, long waitMs,
                                           List<String> entityTags) {
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion) && waitMs > 0) {
            Deadline callerDeadline = PeerCall.of(ctx).deadline();
            long callerLeftMs = callerDeadline == null ? Long.MAX_VALUE : callerDeadline.remaining().toMillis();
            boolean cutByCaller = callerLeftMs < waitMs;
            long waitUntilMs = System.currentTimeMillis() + Math.min(waitMs, callerLeftMs);
            return waiters.await(id, minVersion, waitUntilMs).thenAccept(later -> {
                if (cutByCaller && !VersionWaiters.reached(later, minVersion)) {
                    throw ReadFailures.callerOutOfTime();
                }
                render(ctx, id, later, minVersion, entityTags);
            });
        }
        render(ctx, id, lookup, minVersion, entityTags);
        return DONE;
    }

    private static void render(Context ctx, String id, ProductLookup lookup, Long minVersion,
                               List<String> entityTags) {
        if (lookup instanceof ProductLookup.Failed failed) {
            throw ReadFailures.refusal(failed.failure(), VIEW);
        }
        if (minVersion != null && !VersionWaiters.reached(lookup, minVersion)) {
            throw ApiException.versionNotReached(minVersion, lookup.currentVersion());
        }
        if (!(lookup instanceof ProductLookup.Found found)) {
            throw ReadFailures.notFound("product '" + id + "'");
        }
        String etag = etag(found);
        ctx.header("ETag", etag);
        if (EntityTags.matches(entityTags, etag)) {
            ctx.status(304);
            return;
        }
        Responses.json(ctx, 200, found.json());
    }

    private static String etag(ProductLookup.Found found) {
        return "\"" + found.version() + "\"";
    }
}
