package io.catalogviews.api.listing;

import io.catalogviews.api.routing.FanOutRouter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.routing.KeyOwners;
import io.javalin.http.Context;

import java.util.List;
import java.util.Set;

/**
 * The internal routes that whole-catalog reads ask of each instance ({@link CatalogRead}): POST a
 * {@link ScatterRequest}, answered with {@link ListingFrames} from local partitions only (never forwarded, whoever
 * calls), or refused ({@link FanOutRouter#readHere}): 421 {@code not_hosted} when a partition is not (any more)
 * hosted here, 503 when it cannot be read now, 400 naming {@code body} for a malformed body.
 */
public final class ListingInternalRoutes {

    private final KeyOwners owners;
    private final ListingQueries queries;
    private final FanOutRouter router;

    public ListingInternalRoutes(KeyOwners owners, ListingQueries queries, FanOutRouter router) {
        this.owners = owners;
        this.queries = queries;
        this.router = router;
    }

    /** {@code POST} {@value ListingRoutes#INTERNAL_CATALOG_PAGE_PATH}: a whole-catalog page of local partitions. */
    public void catalogPage(Context ctx) {
        ScatterRequest.PageRequest request = ScatterRequest.readPage(ctx.bodyAsBytes(), owners.partitions());
        ListingPage page = router.readHere(ctx, List.copyOf(request.partitions()),
                CatalogRead.page(owners, queries, request.query()));
        answer(ctx, ListingFrames.page(ListingPage.merge(List.of(page), request.query().limit())));
    }

    /** {@code POST} {@value ListingRoutes#INTERNAL_CATALOG_FACETS_PATH}: whole-catalog facets of local partitions. */
    public void catalogFacets(Context ctx) {
        ScatterRequest.FacetRequest request = ScatterRequest.readFacets(ctx.bodyAsBytes(), owners.partitions());
        answer(ctx, ListingFrames.facets(router.readHere(ctx, List.copyOf(request.partitions()),
                CatalogRead.facets(owners, queries, request.filter()))));
    }

    /** {@code POST} {@value ListingRoutes#INTERNAL_CATEGORIES_PATH}: the non-empty categories of local partitions. */
    public void categories(Context ctx) {
        Set<Integer> partitions = ScatterRequest.readCategories(ctx.bodyAsBytes(), owners.partitions());
        answer(ctx, ListingFrames.categories(router.readHere(ctx, List.copyOf(partitions),
                CatalogRead.categories(owners, queries))));
    }

    private static void answer(Context ctx, byte[] frames) {
        ctx.status(200).contentType(ListingFrames.CONTENT_TYPE).result(frames);
    }
}
