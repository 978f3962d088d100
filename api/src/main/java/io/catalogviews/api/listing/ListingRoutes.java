package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.DirectAnswers;
import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.PeerCall;
import io.catalogviews.api.routing.StaleReads;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.Position;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.http.Context;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code GET /v1/products} (listing), {@code GET /v1/facets} and {@code GET /v1/categories} (CONTRACT.md §2):
 * parse, route, render.
 * <ul>
 *   <li>Every listing — a category's or the whole catalog's — and {@code /v1/categories} read every product partition
 *       ({@link CatalogRead}: each partition holds the whole catalog's and each category's listings of its
 *       products), gathered by the {@link FanOutRouter} and merged here: pages by a k-way merge by position
 *       ({@link ListingPage#merge}), facets by {@link FacetCounts#merge}, category counts summed by name. Never stale,
 *       so {@code fresh=true} changes nothing.</li>
 *   <li>Answers are rendered by {@link ListingJson} around the stored product JSON, {@code application/json}, with
 *       {@link Forwarding#SERVED_BY} naming every instance whose stores answered. {@code nextCursor} is the
 *       {@link CursorCodec} cursor of {@link ListingPage#next()}: the last item when more items match, where the
 *       scan stopped when it ran out of budget, else null.</li>
 *   <li>Facets whose scan would exceed its budget are refused with 422 {@code query_too_broad} ({@link TooBroad}).</li>
 * </ul>
 * The internal routes of the whole-catalog reads are {@link ListingInternalRoutes}.
 */
public final class ListingRoutes {

    public static final String PRODUCTS_PATH = "/v1/products";
    public static final String FACETS_PATH = "/v1/facets";
    public static final String CATEGORIES_PATH = "/v1/categories";
    public static final String INTERNAL_CATALOG_PAGE_PATH = "/internal/v1/listing/catalog-page";
    public static final String INTERNAL_CATALOG_FACETS_PATH = "/internal/v1/listing/catalog-facets";
    public static final String INTERNAL_CATEGORIES_PATH = "/internal/v1/listing/categories";
    /** Bodies remembered for pages (about 20 KB each at 60 items, so up to 20 MB) and for facets (under 1 KB). */
    private static final int PAGE_BODIES = 1024;
    private static final int FACET_BODIES = 256;

    private final KeyOwners owners;
    private final ListingQueries queries;
    private final CursorCodec cursors;
    private final FanOutRouter fanOut;
    private final RenderedBodies<ListingPage, ListingQuery> pageBodies = new RenderedBodies<>(PAGE_BODIES);
    private final RenderedBodies<FacetCounts, ListingParams.FacetParams> facetBodies =
            new RenderedBodies<>(FACET_BODIES);

    public ListingRoutes(KeyOwners owners, ListingQueries queries, CursorCodec cursors, FanOutRouter fanOut) {
        this.owners = owners;
        this.queries = queries;
        this.cursors = cursors;
        this.fanOut = fanOut;
    }

    /** {@code GET /v1/products}: one page of a category or of the whole catalog. */
    public void products(Context ctx) {
        ListingParams.PageParams params = ListingParams.page(ctx.queryParamMap());
        Position after = params.cursor() == null ? null
                : cursors.decode(params.cursor(), params.filter(), params.sort());
        ListingQuery query = new ListingQuery(params.filter(), params.sort(), params.limit(), after);
        gather(ctx, CatalogRead.page(owners, queries, query),
                pages -> pageBodies.body(ListingPage.merge(pages, query.limit()), query, this::renderPage));
    }

    /** {@code GET /v1/facets}: facets of a category or of the whole catalog. */
    public void facets(Context ctx) {
        ListingParams.FacetParams params = ListingParams.facets(ctx.queryParamMap());
        gather(ctx, CatalogRead.facets(owners, queries, params.filter()),
                parts -> facetBodies.body(mergeFacets(parts), params, ListingRoutes::renderFacets));
    }

    /**
     * The body {@link #products} would write for these query parameters when it can be made from memory here at
     * once: a category's page the view keeps while every product partition is active on this instance. Null for
     * anything else (bad parameters or cursor, the whole catalog, partitions elsewhere, nothing kept): the route then
     * answers. Never reads a store nor waits ({@link DirectAnswers}).
     */
    public DirectAnswers.Answer keptPage(String path, Map<String, List<String>> query) {
        ListingQuery listing;
        try {
            ListingParams.PageParams params = ListingParams.page(query);
            Position after = params.cursor() == null ? null
                    : cursors.decode(params.cursor(), params.filter(), params.sort());
            listing = new ListingQuery(params.filter(), params.sort(), params.limit(), after);
        } catch (ApiException e) {
            return null;
        }
        ListingPage kept = ownedHere(listing.filter()) ? queries.keptCategoryPage(listing) : null;
        return kept == null ? null : new DirectAnswers.Answer(
                pageBodies.body(ListingPage.merge(List.of(kept), listing.limit()), listing, this::renderPage), null);
    }

    /**
     * The body {@link #facets} would write for these query parameters when it can be made from memory here at once:
     * the facets of a category the view keeps while every product partition is active on this instance. Null for
     * anything else (bad parameters, the whole catalog, partitions elsewhere, nothing kept, over budget): the route
     * then answers.
     * Never reads a store nor waits ({@link DirectAnswers}).
     */
    public DirectAnswers.Answer keptFacets(String path, Map<String, List<String>> query) {
        ListingParams.FacetParams params;
        try {
            params = ListingParams.facets(query);
        } catch (ApiException e) {
            return null;
        }
        FacetCounts kept = ownedHere(params.filter()) ? queries.keptCategoryFacets(params.filter()) : null;
        return kept == null || kept.overBudget() ? null
                : new DirectAnswers.Answer(facetBodies.body(kept, params, ListingRoutes::renderFacets), null);
    }

    /**
     * Whether {@code filter} names a category and the metadata puts the active copy of every product partition on this
     * instance, so that its answer is this instance's alone.
     */
    private boolean ownedHere(ListingFilter filter) {
        if (filter.isWholeCatalog()) {
            return false;
        }
        Map<Integer, Instance> active = owners.activeOwners(StoreNames.PRODUCTS);
        if (active.size() != owners.partitions()) {
            return false;
        }
        Instance self = owners.self();
        for (Instance owner : active.values()) {
            if (!self.equals(owner)) {
                return false;
            }
        }
        return true;
    }

    /** @throws ApiException 422 {@code query_too_broad} when a partition's scan would exceed its budget */
    private static byte[] renderFacets(FacetCounts facets, ListingParams.FacetParams params) {
        if (facets.overBudget()) {
            throw TooBroad.facets(params.filter());
        }
        return ListingJson.facets(facets, params.brandLimit());
    }

    /**
     * {@code GET /v1/categories}: every non-empty category with its product count, by name. Takes {@code fresh}
     * like every read route; it changes nothing here (never stale).
     */
    public void categories(Context ctx) {
        QueryParams.of(ctx.queryParamMap(), Set.of(StaleReads.FRESH_PARAM)).booleanText(StaleReads.FRESH_PARAM);
        gather(ctx, CatalogRead.categories(owners, queries), parts -> ListingJson.categories(sumByCategory(parts)));
    }

    private <T> void gather(Context ctx, CatalogRead<T> read, Function<List<T>, byte[]> render) {
        Responses.later(ctx, fanOut.gather(read.allPartitions(), read, false, PeerCall.of(ctx))
                .thenAccept(gathered -> {
                    ctx.header(Forwarding.SERVED_BY, gathered.servedBy().stream().map(Instance::hostPort)
                            .collect(Collectors.joining(",")));
                    Responses.json(ctx, 200, render.apply(gathered.answers()));
                }));
    }

    /**
     * The page with the cursor of where it ends: its last item when more match, or, when its scan ran out of
     * budget, the last index entry examined (the page may then hold fewer than {@code limit} items, or none).
     */
    private byte[] renderPage(ListingPage page, ListingQuery query) {
        Position next = page.next();
        return ListingJson.page(page, next == null ? null : cursors.encode(next, query));
    }

    static FacetCounts mergeFacets(List<FacetCounts> parts) {
        if (parts.size() == 1) {
            return parts.get(0); // as it is, so that an answer kept in memory keeps its rendered body
        }
        FacetCounts merged = FacetCounts.EMPTY;
        for (FacetCounts part : parts) {
            merged = merged.merge(part);
        }
        return merged;
    }

    /**
     * The category counts of every instance's partitions, summed by category and sorted by name: a category has
     * products in every product partition, so each instance counts its share.
     */
    static List<CategoryCount> sumByCategory(List<List<CategoryCount>> parts) {
        Map<String, Long> counts = new TreeMap<>();
        for (List<CategoryCount> part : parts) {
            for (CategoryCount c : part) {
                counts.merge(c.category(), c.count(), Long::sum);
            }
        }
        List<CategoryCount> all = new ArrayList<>(counts.size());
        counts.forEach((category, count) -> all.add(new CategoryCount(category, count)));
        return all;
    }
}
