package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.listing.Position;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static io.catalogviews.api.routing.Forwarding.isForwarded;

/**
 * {@code GET /v1/products} (listing), {@code GET /v1/facets} and {@code GET /v1/categories} (CONTRACT.md §2),
 * and the internal routes their scatter-gather calls.
 *
 * <ul>
 *   <li>With {@code category}: the instance owning the category's partition answers. This instance answers
 *       from its local category views when it is the active owner; otherwise it forwards the whole public
 *       request ONCE (marked with {@link Forwarding#FORWARDED_BY}) and relays status, body, Content-Type,
 *       Retry-After and {@link Forwarding#SERVED_BY}. A forwarded request is answered locally or refused with
 *       503, never forwarded again. When the owner cannot answer (none, 503, unreachable, timeout), a standby of
 *       the category's partition answers, marked {@code X-Stale: true} with {@code X-Lag-Records}
 *       ({@link StaleReads}; {@code fresh=true} forbids it); otherwise 503 {@code unavailable} with Retry-After.</li>
 *   <li>Without {@code category}, and {@code /v1/categories}: scatter-gather over every partition (see
 *       {@link ScatterGather}), merged here: pages by a k-way merge by position ({@link ListingPage#merge}), facets by
 *       {@link FacetCounts#merge}, categories concatenated and sorted by name.</li>
 *   <li>Answers are rendered by {@link ListingJson} around the stored product JSON, {@code application/json},
 *       with {@link Forwarding#SERVED_BY} naming every instance whose stores answered. {@code nextCursor} is the
 *       {@link CursorCodec} cursor of the last item when more items match, else null.</li>
 *   <li>Internal routes ({@value #INTERNAL_CATALOG_PAGE_PATH}, {@value #INTERNAL_CATALOG_FACETS_PATH},
 *       {@value #INTERNAL_CATEGORIES_PATH}): POST a {@link ScatterRequest}, answered with {@link ListingFrames}
 *       from local partitions only (never forwarded, whoever calls), or refused: 421 {@code not_hosted} when a
 *       partition is not (any more) hosted here, 503 when it cannot be read now, 400 for a malformed body.</li>
 * </ul>
 * Every error is an {@link ApiException}, written by {@link Responses}.
 */
public final class ListingRoutes {

    public static final String PRODUCTS_PATH = "/v1/products";
    public static final String FACETS_PATH = "/v1/facets";
    public static final String CATEGORIES_PATH = "/v1/categories";
    public static final String INTERNAL_CATALOG_PAGE_PATH = "/internal/v1/listing/catalog-page";
    public static final String INTERNAL_CATALOG_FACETS_PATH = "/internal/v1/listing/catalog-facets";
    public static final String INTERNAL_CATEGORIES_PATH = "/internal/v1/listing/categories";

    private final KeyOwners owners;
    private final ListingQueries queries;
    private final Forwarder forwarder;
    private final CursorCodec cursors;
    private final Duration forwardTimeout;
    private final Instance self;
    private final ScatterGather scatter;
    private final StaleReads stale;

    /** @param stale when and how a standby of a category's partition answers for its owner */
    public ListingRoutes(KeyOwners owners, ListingQueries queries, Forwarder forwarder, CursorCodec cursors,
                         Duration forwardTimeout, StaleReads stale) {
        this.stale = stale;
        this.owners = owners;
        this.queries = queries;
        this.forwarder = forwarder;
        this.cursors = cursors;
        this.forwardTimeout = forwardTimeout;
        this.self = owners.self();
        this.scatter = new ScatterGather(owners, forwardTimeout);
    }

    // ---------------------------------------------------------------- public routes

    /** {@code GET /v1/products}: one page of a category or of the whole catalog. */
    public void products(Context ctx) {
        ListingParams.PageParams params = ListingParams.page(ctx.queryParamMap());
        Position after = params.cursor() == null ? null
                : cursors.decode(params.cursor(), params.filter(), params.sort());
        ListingQuery query = new ListingQuery(params.filter(), params.sort(), params.limit(), after);
        if (!query.filter().isWholeCatalog()) {
            byCategory(ctx, new CategoryRead<>(query.filter().category(), params.fresh(),
                    () -> queries.categoryPage(query), () -> queries.categoryPageFromAnyReplica(query),
                    page -> renderPage(ListingPage.merge(List.of(page), query.limit()), query)));
            return;
        }
        Responses.later(ctx, scatter.gather(StoreNames.PRODUCTS, isForwarded(ctx), pagePart(query))
                .thenAccept(gathered -> answer(ctx, gathered.servedBy(),
                        renderPage(ListingPage.merge(gathered.answers(), query.limit()), query))));
    }

    /** {@code GET /v1/facets}: facets of a category or of the whole catalog. */
    public void facets(Context ctx) {
        ListingParams.FacetParams params = ListingParams.facets(ctx.queryParamMap());
        if (!params.filter().isWholeCatalog()) {
            byCategory(ctx, new CategoryRead<>(params.filter().category(), params.fresh(),
                    () -> queries.categoryFacets(params.filter()),
                    () -> queries.categoryFacetsFromAnyReplica(params.filter()),
                    facets -> ListingJson.facets(facets, params.brandLimit())));
            return;
        }
        Responses.later(ctx, scatter.gather(StoreNames.PRODUCTS, isForwarded(ctx), facetPart(params.filter()))
                .thenAccept(gathered -> answer(ctx, gathered.servedBy(),
                        ListingJson.facets(mergeFacets(gathered.answers()), params.brandLimit()))));
    }

    /** {@code GET /v1/categories}: every non-empty category with its product count, by name. */
    public void categories(Context ctx) {
        QueryParams.of(ctx.queryParamMap(), Set.of());
        Responses.later(ctx, scatter.gather(StoreNames.CATEGORY_LISTINGS, isForwarded(ctx), categoriesPart())
                .thenAccept(gathered -> answer(ctx, gathered.servedBy(),
                        ListingJson.categories(concat(gathered.answers())))));
    }

    private ScatterGather.Part<ListingPage> pagePart(ListingQuery query) {
        return new ScatterGather.Part<ListingPage>() {
            @Override
            public ListingResult<ListingPage> local(Set<Integer> partitions) {
                return queries.catalogPage(query, partitions);
            }

            @Override
            public CompletableFuture<ForwardedResponse> remote(Instance target, Set<Integer> partitions,
                                                               Duration timeout) {
                return forwarder.post(target, INTERNAL_CATALOG_PAGE_PATH, ScatterRequest.page(query, partitions),
                        ScatterRequest.CONTENT_TYPE, timeout);
            }

            @Override
            public ListingPage decode(byte[] body) {
                return ListingFrames.readPage(body);
            }
        };
    }

    private ScatterGather.Part<FacetCounts> facetPart(ListingFilter filter) {
        return new ScatterGather.Part<FacetCounts>() {
            @Override
            public ListingResult<FacetCounts> local(Set<Integer> partitions) {
                return queries.catalogFacets(filter, partitions);
            }

            @Override
            public CompletableFuture<ForwardedResponse> remote(Instance target, Set<Integer> partitions,
                                                               Duration timeout) {
                return forwarder.post(target, INTERNAL_CATALOG_FACETS_PATH, ScatterRequest.facets(filter, partitions),
                        ScatterRequest.CONTENT_TYPE, timeout);
            }

            @Override
            public FacetCounts decode(byte[] body) {
                return ListingFrames.readFacets(body);
            }
        };
    }

    private ScatterGather.Part<List<CategoryCount>> categoriesPart() {
        return new ScatterGather.Part<List<CategoryCount>>() {
            @Override
            public ListingResult<List<CategoryCount>> local(Set<Integer> partitions) {
                return queries.categories(partitions);
            }

            @Override
            public CompletableFuture<ForwardedResponse> remote(Instance target, Set<Integer> partitions,
                                                               Duration timeout) {
                return forwarder.post(target, INTERNAL_CATEGORIES_PATH, ScatterRequest.categories(partitions),
                        ScatterRequest.CONTENT_TYPE, timeout);
            }

            @Override
            public List<CategoryCount> decode(byte[] body) {
                return ListingFrames.readCategories(body);
            }
        };
    }

    // ---------------------------------------------------------------- internal routes

    /** {@code POST} {@value #INTERNAL_CATALOG_PAGE_PATH}: a whole-catalog page of the given local partitions. */
    public void internalCatalogPage(Context ctx) {
        ScatterRequest.PageRequest request = ScatterRequest.readPage(ctx.bodyAsBytes(), owners.partitions());
        refuseMoved(StoreNames.PRODUCTS, request.partitions());
        ListingPage page = localOrRefuse(queries.catalogPage(request.query(), request.partitions()));
        internalAnswer(ctx, ListingFrames.page(ListingPage.merge(List.of(page), request.query().limit())));
    }

    /** {@code POST} {@value #INTERNAL_CATALOG_FACETS_PATH}: whole-catalog facets of the given local partitions. */
    public void internalCatalogFacets(Context ctx) {
        ScatterRequest.FacetRequest request = ScatterRequest.readFacets(ctx.bodyAsBytes(), owners.partitions());
        refuseMoved(StoreNames.PRODUCTS, request.partitions());
        internalAnswer(ctx, ListingFrames.facets(localOrRefuse(
                queries.catalogFacets(request.filter(), request.partitions()))));
    }

    /** {@code POST} {@value #INTERNAL_CATEGORIES_PATH}: the non-empty categories of the given local partitions. */
    public void internalCategories(Context ctx) {
        Set<Integer> partitions = ScatterRequest.readCategories(ctx.bodyAsBytes(), owners.partitions());
        refuseMoved(StoreNames.CATEGORY_LISTINGS, partitions);
        internalAnswer(ctx, ListingFrames.categories(localOrRefuse(queries.categories(partitions))));
    }

    // ---------------------------------------------------------------- category routing

    /**
     * One read of a category's partition: from the active copy, or (failover) from any local copy with its lag,
     * rendered the same way.
     */
    private record CategoryRead<T>(String category, boolean fresh, Supplier<ListingResult<T>> active,
                                   Supplier<ListingQueries.ReplicaRead<T>> anyReplica, Function<T, byte[]> render) {
    }

    private <T> void byCategory(Context ctx, CategoryRead<T> read) {
        if (StaleReads.isReplicaRead(ctx)) {
            answerFromLocalReplica(ctx, read);
            return;
        }
        Ownership ownership = owners.ownerOfCategory(read.category());
        Instance owner = ownership.active().orElse(null);
        if (owner == null) {
            failover(ctx, read, ownership, ListingErrors.noOwner());
            return;
        }
        if (!owner.equals(self)) {
            forwardOnce(ctx, read, ownership, owner);
            return;
        }
        ListingResult<T> result = read.active().get();
        if (result instanceof ListingResult.Ok<T> ok) {
            answer(ctx, List.of(self), read.render().apply(ok.value()));
            return;
        }
        QueryFailure failure = ((ListingResult.Failed<T>) result).failure();
        if (failure.kind() == QueryFailure.Kind.NOT_HOSTED_HERE) {
            // The partition left between metadata and store: ask the new owner, once, if there is one.
            Ownership moved = owners.ownerOfCategory(read.category());
            Instance fresh = moved.active().orElse(null);
            if (fresh != null && !fresh.equals(self)) {
                forwardOnce(ctx, read, moved, fresh);
                return;
            }
        }
        failover(ctx, read, ownership, ListingErrors.unavailable(failure));
    }

    /**
     * Forwards the whole public request to {@code owner}, unless it was forwarded already (then 503). When the
     * owner cannot answer (503, unreachable, timeout), fails over to a standby of the partition.
     */
    private <T> void forwardOnce(Context ctx, CategoryRead<T> read, Ownership ownership, Instance owner) {
        if (isForwarded(ctx)) {
            // Metadata moved while the request travelled: refuse, never forward a second time.
            throw ListingErrors.noOwner();
        }
        Responses.later(ctx, forwarder.get(owner, pathAndQuery(ctx), null, forwardTimeout)
                .thenApply(response -> {
                    if (response.status() == 503) {
                        throw ListingErrors.refused(response);
                    }
                    return response;
                })
                .handle((response, failure) -> {
                    if (failure == null) {
                        relay(ctx, response);
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    return failoverLater(ctx, read, ownership, Responses.toApiException(failure));
                }).thenCompose(f -> f));
    }

    private <T> void failover(Context ctx, CategoryRead<T> read, Ownership ownership, ApiException refusal) {
        Responses.later(ctx, failoverLater(ctx, read, ownership, refusal));
    }

    /**
     * The owner cannot answer: a standby of the partition answers, marked stale ({@link StaleReads}), this
     * instance's own when it holds one; otherwise {@code refusal}.
     */
    private <T> CompletableFuture<Void> failoverLater(Context ctx, CategoryRead<T> read, Ownership ownership,
                                                     ApiException refusal) {
        Instance standby = stale.standby(ownership, read.fresh(), isForwarded(ctx)).orElse(null);
        if (standby == null) {
            return CompletableFuture.failedFuture(refusal);
        }
        if (standby.equals(self)) {
            try {
                answerFromLocalReplica(ctx, read);
                return CompletableFuture.completedFuture(null);
            } catch (ApiException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return forwarder.getReplica(standby, pathAndQuery(ctx), forwardTimeout)
                .thenAccept(response -> {
                    if (response.status() != 200) {
                        throw refusal;
                    }
                    relay(ctx, response);
                });
    }

    /** Reads this instance's own copy of the category's partition, active or standby, if it is close enough. */
    private <T> void answerFromLocalReplica(Context ctx, CategoryRead<T> read) {
        ListingQueries.ReplicaRead<T> replica = read.anyReplica().get();
        if (replica.result() instanceof ListingResult.Failed<T> failed) {
            throw ListingErrors.unavailable(failed.failure());
        }
        if (!stale.closeEnough(replica.lagRecords())) {
            throw StaleReads.tooFarBehind();
        }
        StaleReads.mark(ctx, replica.lagRecords());
        answer(ctx, List.of(self), read.render().apply(((ListingResult.Ok<T>) replica.result()).value()));
    }

    private static String pathAndQuery(Context ctx) {
        String query = ctx.queryString();
        return ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    private static void relay(Context ctx, ForwardedResponse response) {
        for (String header : List.of(Forwarding.SERVED_BY, "Retry-After", "Content-Type", Forwarding.STALE,
                Forwarding.LAG_RECORDS)) {
            response.header(header).ifPresent(value -> ctx.header(header, value));
        }
        if (response.status() >= 400) {
            // The owner already wrote the contract's error body: keep it (not Javalin's generic 404/405 page).
            ctx.attribute(Responses.ERROR_WRITTEN, Boolean.TRUE);
        }
        ctx.status(response.status()).result(response.body());
    }

    // ---------------------------------------------------------------- shared

    private byte[] renderPage(ListingPage page, ListingQuery query) {
        List<ListingItem> items = page.items();
        String next = page.more() && !items.isEmpty()
                ? cursors.encode(items.get(items.size() - 1).position(), query) : null;
        return ListingJson.page(page, next);
    }

    static FacetCounts mergeFacets(List<FacetCounts> parts) {
        FacetCounts merged = FacetCounts.EMPTY;
        for (FacetCounts part : parts) {
            merged = merged.merge(part);
        }
        return merged;
    }

    static List<CategoryCount> concat(List<List<CategoryCount>> parts) {
        List<CategoryCount> all = new ArrayList<>();
        parts.forEach(all::addAll);
        return all;
    }

    /** Refuses (421) when current metadata names another active instance for any of the partitions. */
    private void refuseMoved(String store, Set<Integer> partitions) {
        Map<Integer, Instance> active = owners.activeOwners(store);
        for (int p : partitions) {
            Instance owner = active.get(p);
            if (owner != null && !owner.equals(self)) {
                throw ListingErrors.notHosted();
            }
        }
    }

    private static <T> T localOrRefuse(ListingResult<T> result) {
        if (result instanceof ListingResult.Ok<T> ok) {
            return ok.value();
        }
        QueryFailure failure = ((ListingResult.Failed<T>) result).failure();
        throw failure.kind() == QueryFailure.Kind.NOT_HOSTED_HERE ? ListingErrors.notHosted()
                : ListingErrors.unavailable(failure);
    }

    private static void answer(Context ctx, List<Instance> servedBy, byte[] body) {
        ctx.header(Forwarding.SERVED_BY, servedBy.stream().map(Instance::hostPort).collect(Collectors.joining(",")));
        Responses.json(ctx, 200, body);
    }

    private void internalAnswer(Context ctx, byte[] frames) {
        ctx.header(Forwarding.SERVED_BY, self.hostPort());
        ctx.status(200).contentType(ListingFrames.CONTENT_TYPE).result(frames);
    }

}
