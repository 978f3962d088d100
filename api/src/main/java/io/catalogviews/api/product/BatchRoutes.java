package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.json.JsonBytes;
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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.catalogviews.api.product.ProductViewErrors.partitionUnavailable;
import static io.catalogviews.api.routing.Forwarding.isForwarded;

/**
 * {@code POST /v1/products/batch} and its internal end. The ids are grouped by the active owner of their
 * partition ({@link BatchPlan}); each owner answers its ids ({@link BatchFrames}), this instance its own. Where an
 * owner cannot answer (refuses, cannot be reached, times out, or there is none), its ids fail over to a standby of
 * their partitions ({@link StaleReads}): read here when this instance holds the standby, else asked of the standby
 * with {@link Forwarding#REPLICA_READ}. An answer with any part from a standby is marked {@code X-Stale: true} with
 * the largest lag in {@code X-Lag-Records}. {@code fresh=true} forbids it. If any part has no answer, the whole
 * request is refused with 503 (or 504): never a shorter answer.
 */
public final class BatchRoutes {

    public static final String INTERNAL_BATCH_PATH = "/internal/v1/products/batch";
    private static final Logger LOG = LoggerFactory.getLogger(BatchRoutes.class);

    /** The answer for some ids: their JSON (null when missing), who read them, and how stale. */
    private record Part(List<String> ids, List<byte[]> jsons, Instance servedBy, boolean stale, long lagRecords) {
    }

    private final KeyOwners owners;
    private final ProductQueries queries;
    private final Forwarder forwarder;
    private final Duration forwardTimeout;
    private final StaleReads stale;
    private final Instance self;

    public BatchRoutes(KeyOwners owners, ProductQueries queries, Forwarder forwarder, Duration forwardTimeout,
                       StaleReads stale) {
        this.owners = owners;
        this.queries = queries;
        this.forwarder = forwarder;
        this.forwardTimeout = forwardTimeout;
        this.stale = stale;
        this.self = owners.self();
    }

    /** {@code POST /v1/products/batch}. */
    public void batch(Context ctx) {
        requireJson(ctx);
        QueryParams params = QueryParams.of(ctx.queryParamMap(), Set.of(StaleReads.FRESH_PARAM));
        boolean fresh = "true".equals(params.booleanText(StaleReads.FRESH_PARAM));
        BatchRequest request = BatchRequest.parse(ctx.bodyAsBytes());
        List<String> ids = request.distinctIds();
        boolean forwarded = isForwarded(ctx);
        Map<String, Ownership> ownerships = new HashMap<>(ids.size() * 2);
        for (String id : ids) {
            ownerships.put(id, owners.ownerOfProduct(id));
        }
        BatchPlan plan = BatchPlan.of(ids, ownerships::get);
        if (forwarded && !plan.allOwnedBy(self)) {
            // Metadata moved while the request travelled: refuse, never forward a second time.
            throw partitionUnavailable(ownerships.get(ids.get(0)).partition());
        }
        Failover failover = new Failover(ownerships, fresh, forwarded);
        List<CompletableFuture<List<Part>>> parts = new ArrayList<>();
        // Remote owners first, so their calls run while the local part is read.
        plan.byOwner().forEach((owner, ownerIds) -> {
            if (!owner.equals(self)) {
                parts.add(fromOwner(owner, ownerIds)
                        .thenApply(List::of)
                        .exceptionallyCompose(failure -> failover.of(ownerIds, Responses.toApiException(failure))));
            }
        });
        List<String> localIds = plan.byOwner().getOrDefault(self, List.of());
        if (!localIds.isEmpty()) {
            parts.add(fromLocalActive(localIds).map(part -> CompletableFuture.completedFuture(List.of(part)))
                    .orElseGet(() -> failover.of(localIds,
                            partitionUnavailable(ownerships.get(localIds.get(0)).partition()))));
        }
        if (!plan.ownerless().isEmpty()) {
            parts.add(failover.of(plan.ownerless(),
                    partitionUnavailable(ownerships.get(plan.ownerless().get(0)).partition())));
        }
        Responses.later(ctx, CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenAccept(ignored -> answer(ctx, ids, parts.stream().flatMap(p -> p.join().stream()).toList())));
    }

    /**
     * {@code POST} {@value #INTERNAL_BATCH_PATH}: the ids this instance owns, answered as {@link BatchFrames}; with
     * {@link Forwarding#REPLICA_READ}, from any local copy of their partitions, marked stale with its lag.
     */
    public void internalBatch(Context ctx) {
        BatchRequest request = BatchRequest.parse(ctx.bodyAsBytes());
        List<ProductLookup> lookups;
        if (StaleReads.isReplicaRead(ctx)) {
            ProductQueries.ReplicaBatch read = queries.getAllFromAnyReplica(request.distinctIds());
            requireAnswered(read.lookups());
            if (!stale.closeEnough(read.lagRecords())) {
                throw StaleReads.tooFarBehind();
            }
            StaleReads.mark(ctx, read.lagRecords());
            lookups = read.lookups();
        } else {
            for (String id : request.distinctIds()) {
                Ownership ownership = owners.ownerOfProduct(id);
                if (ownership.active().isEmpty() || !ownership.active().get().equals(self)) {
                    throw partitionUnavailable(ownership.partition());
                }
            }
            lookups = queries.getAll(request.distinctIds());
            requireAnswered(lookups);
        }
        ctx.header(Forwarding.SERVED_BY, self.hostPort());
        ctx.status(200).contentType(BatchFrames.CONTENT_TYPE).result(BatchFrames.encode(lookups));
    }

    // ---------------------------------------------------------------- parts

    private CompletableFuture<Part> fromOwner(Instance owner, List<String> ids) {
        return forwarder.post(owner, INTERNAL_BATCH_PATH, batchBody(ids), "application/json", forwardTimeout)
                .thenApply(response -> new Part(ids, frames(response, ids.size()), owner, false, 0));
    }

    /** This instance's active partitions; empty when one of them cannot be read now. */
    private Optional<Part> fromLocalActive(List<String> ids) {
        List<ProductLookup> lookups = queries.getAll(ids);
        for (ProductLookup lookup : lookups) {
            if (lookup instanceof ProductLookup.Failed failed) {
                LOG.debug("Local batch read refused: {}", failed.failure().message());
                return Optional.empty();
            }
        }
        return Optional.of(new Part(ids, jsons(lookups), self, false, 0));
    }

    /** The failover of the ids of owners that could not answer. */
    private final class Failover {
        private final Map<String, Ownership> ownerships;
        private final boolean fresh;
        private final boolean forwarded;

        Failover(Map<String, Ownership> ownerships, boolean fresh, boolean forwarded) {
            this.ownerships = ownerships;
            this.fresh = fresh;
            this.forwarded = forwarded;
        }

        /** The ids answered by standbys of their partitions, or {@code refusal} when some have none. */
        CompletableFuture<List<Part>> of(List<String> ids, ApiException refusal) {
            Optional<Map<Instance, List<String>>> byStandby = BatchPlan.byStandby(ids, ownerships::get, stale, fresh,
                    forwarded);
            if (byStandby.isEmpty()) {
                return CompletableFuture.failedFuture(refusal);
            }
            List<CompletableFuture<Part>> parts = new ArrayList<>();
            byStandby.get().forEach((standby, standbyIds) -> parts.add(standby.equals(self)
                    ? fromLocalReplica(standbyIds, refusal) : fromRemoteReplica(standby, standbyIds, refusal)));
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                    .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
        }
    }

    private CompletableFuture<Part> fromLocalReplica(List<String> ids, ApiException refusal) {
        ProductQueries.ReplicaBatch read = queries.getAllFromAnyReplica(ids);
        for (ProductLookup lookup : read.lookups()) {
            if (lookup instanceof ProductLookup.Failed failed) {
                LOG.debug("Local replica batch read refused: {}", failed.failure().message());
                return CompletableFuture.failedFuture(refusal);
            }
        }
        if (!stale.closeEnough(read.lagRecords())) {
            return CompletableFuture.failedFuture(StaleReads.tooFarBehind());
        }
        return CompletableFuture.completedFuture(new Part(ids, jsons(read.lookups()), self, true, read.lagRecords()));
    }

    private CompletableFuture<Part> fromRemoteReplica(Instance standby, List<String> ids, ApiException refusal) {
        return forwarder.postReplica(standby, INTERNAL_BATCH_PATH, batchBody(ids), "application/json", forwardTimeout)
                .thenApply(response -> {
                    long lag = lagOf(response);
                    if (response.status() != 200 || !stale.closeEnough(lag)) {
                        throw refusal;
                    }
                    return new Part(ids, BatchFrames.decode(response.body(), ids.size()), standby, true, lag);
                });
    }

    // ---------------------------------------------------------------- answer

    private static void answer(Context ctx, List<String> ids, List<Part> parts) {
        Map<String, byte[]> found = new HashMap<>(ids.size() * 2);
        Set<String> servedBy = new LinkedHashSet<>();
        long maxLag = -1;
        for (Part part : parts) {
            for (int i = 0; i < part.ids().size(); i++) {
                if (part.jsons().get(i) != null) {
                    found.put(part.ids().get(i), part.jsons().get(i));
                }
            }
            servedBy.add(part.servedBy().hostPort());
            if (part.stale()) {
                maxLag = Math.max(maxLag, part.lagRecords());
            }
        }
        if (maxLag >= 0) {
            StaleReads.mark(ctx, maxLag);
        }
        ctx.header(Forwarding.SERVED_BY, String.join(",", servedBy));
        Responses.json(ctx, 200, BatchAnswer.render(ids, found));
    }

    private static List<byte[]> jsons(List<ProductLookup> lookups) {
        List<byte[]> out = new ArrayList<>(lookups.size());
        for (ProductLookup lookup : lookups) {
            out.add(lookup instanceof ProductLookup.Found f ? f.json() : null);
        }
        return out;
    }

    private static void requireAnswered(List<ProductLookup> lookups) {
        for (ProductLookup lookup : lookups) {
            if (lookup instanceof ProductLookup.Failed failed) {
                throw unavailable(failed.failure());
            }
        }
    }

    private static List<byte[]> frames(ForwardedResponse response, int expected) {
        if (response.status() != 200) {
            // The owner refused (moved, restoring): fail over, or refuse the whole batch, never answer shorter.
            throw ApiException.unavailable("an instance that owns part of the batch cannot answer now; retry "
                    + "shortly", retryAfter(response));
        }
        return BatchFrames.decode(response.body(), expected);
    }

    private static long lagOf(ForwardedResponse response) {
        try {
            return response.header(Forwarding.LAG_RECORDS).map(String::trim).map(Long::parseLong).orElse(-1L);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int retryAfter(ForwardedResponse response) {
        try {
            return response.header("Retry-After").map(Integer::parseInt).orElse(1);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static byte[] batchBody(List<String> ids) {
        JsonBytes out = new JsonBytes(ids.size() * 24 + 16);
        out.raw((byte) '{').name("ids").raw((byte) '[');
        for (int i = 0; i < ids.size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.string(ids.get(i));
        }
        out.raw((byte) ']').raw((byte) '}');
        return out.toByteArray();
    }

    private static void requireJson(Context ctx) {
        String contentType = ctx.header("Content-Type");
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].trim();
        if (!mediaType.equalsIgnoreCase("application/json")) {
            throw ApiException.unsupportedMediaType("Content-Type must be application/json, was "
                    + (contentType == null ? "absent" : "'" + contentType + "'"));
        }
    }

    private static ApiException unavailable(QueryFailure failure) {
        LOG.debug("Local batch read refused: {}", failure.message());
        return ApiException.unavailable("the product view cannot be read here now ("
                + (failure.kind() == QueryFailure.Kind.RETRY_LATER ? "rebalancing or restoring" : "moving")
                + "); retry shortly", 1);
    }

}
