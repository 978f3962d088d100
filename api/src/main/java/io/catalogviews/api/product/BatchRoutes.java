package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.Gathered;
import io.catalogviews.api.routing.PeerCall;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.http.Context;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code POST /v1/products/batch} and its internal end. The {@link FanOutRouter} asks the active owner of each id's
 * partition for its ids ({@link BatchRead}), fails the ids of an owner that cannot answer over to standbys of their
 * partitions ({@code X-Stale: true} with the largest lag in {@code X-Lag-Records}; never for {@code fresh=true}), and
 * refuses the whole request with 503 (or 504) if any id has no answer: never a shorter answer.
 */
public final class BatchRoutes {

    public static final String INTERNAL_BATCH_PATH = "/internal/v1/products/batch";

    private final KeyOwners owners;
    private final ProductQueries queries;
    private final FanOutRouter router;

    public BatchRoutes(KeyOwners owners, ProductQueries queries, FanOutRouter router) {
        this.owners = owners;
        this.queries = queries;
        this.router = router;
    }

    /** {@code POST /v1/products/batch}. */
    public void batch(Context ctx) {
        requireJson(ctx);
        QueryParams params = QueryParams.of(ctx.queryParamMap(), Set.of(StaleReads.FRESH_PARAM));
        boolean fresh = "true".equals(params.booleanText(StaleReads.FRESH_PARAM));
        List<String> ids = BatchRequest.parse(ctx.bodyAsBytes()).distinctIds();
        Responses.later(ctx, router.gather(ids, new BatchRead(owners, queries), fresh, PeerCall.of(ctx))
                .thenAccept(gathered -> answer(ctx, ids, gathered)));
    }

    /**
     * {@code POST} {@value #INTERNAL_BATCH_PATH}: the ids this instance owns, answered as {@link BatchFrames}; with
     * a signed {@link Forwarding#REPLICA_READ}, from any local copy of their partitions, marked stale with its lag.
     */
    public void internalBatch(Context ctx) {
        List<String> ids = BatchRequest.parse(ctx.bodyAsBytes()).distinctIds();
        BatchRead.Part part = router.readHere(ctx, ids, new BatchRead(owners, queries));
        ctx.status(200).contentType(BatchFrames.CONTENT_TYPE).result(BatchFrames.encode(part.jsons()));
    }

    private static void answer(Context ctx, List<String> ids, Gathered<BatchRead.Part> gathered) {
        Map<String, byte[]> found = new HashMap<>(ids.size() * 2);
        for (BatchRead.Part part : gathered.answers()) {
            for (int i = 0; i < part.ids().size(); i++) {
                if (part.jsons().get(i) != null) {
                    found.put(part.ids().get(i), part.jsons().get(i));
                }
            }
        }
        if (gathered.stale()) {
            StaleReads.mark(ctx, gathered.lagRecords());
        }
        ctx.header(Forwarding.SERVED_BY, gathered.servedBy().stream().map(Instance::hostPort)
                .collect(Collectors.joining(",")));
        Responses.json(ctx, 200, BatchAnswer.render(ids, found));
    }

    private static void requireJson(Context ctx) {
        String contentType = ctx.header("Content-Type");
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].trim();
        if (!mediaType.equalsIgnoreCase("application/json")) {
            throw ApiException.unsupportedMediaType("Content-Type must be application/json, was "
                    + (contentType == null ? "absent" : "'" + contentType + "'"));
        }
    }
}
