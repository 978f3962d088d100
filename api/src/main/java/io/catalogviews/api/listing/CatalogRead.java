package io.catalogviews.api.listing;

import io.catalogviews.api.routing.FanOutRead;
import io.catalogviews.api.routing.LocalRead;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * A query over every product partition (pages and facets of a category or of the whole catalog, the category
 * list: each partition holds every scope of its products), as the {@link io.catalogviews.api.routing.FanOutRouter}
 * reads it: locally from the given partitions, or from another instance through an internal route ({@link
 * ScatterRequest} in, {@link ListingFrames} out). Never answered by a standby: these answers are never stale.
 *
 * @param metadata who holds which partition
 * @param store  the store whose partitions are read (its active owners are asked)
 * @param view   for messages
 * @param local  reads the given local partitions
 * @param path   the internal route
 * @param body   the internal request for the given partitions
 * @param reader reads the internal route's answer
 */
record CatalogRead<T>(KeyOwners metadata, String store, String view, Function<Set<Integer>, ListingResult<T>> local,
                      String path, Function<Set<Integer>, byte[]> body, Function<byte[], T> reader)
        implements FanOutRead<Integer, T> {

    static CatalogRead<ListingPage> page(KeyOwners owners, ListingQueries queries, ListingQuery query) {
        return new CatalogRead<>(owners, StoreNames.PRODUCTS, viewOf(query.filter(), "listing"),
                partitions -> queries.catalogPage(query, partitions), ListingRoutes.INTERNAL_CATALOG_PAGE_PATH,
                partitions -> ScatterRequest.page(query, partitions), ListingFrames::readPage);
    }

    static CatalogRead<FacetCounts> facets(KeyOwners owners, ListingQueries queries, ListingFilter filter) {
        return new CatalogRead<>(owners, StoreNames.PRODUCTS, viewOf(filter, "facets"),
                partitions -> queries.catalogFacets(filter, partitions), ListingRoutes.INTERNAL_CATALOG_FACETS_PATH,
                partitions -> ScatterRequest.facets(filter, partitions), ListingFrames::readFacets);
    }

    static CatalogRead<List<CategoryCount>> categories(KeyOwners owners, ListingQueries queries) {
        return new CatalogRead<>(owners, StoreNames.PRODUCTS, "category list", queries::categories,
                ListingRoutes.INTERNAL_CATEGORIES_PATH, ScatterRequest::categories, ListingFrames::readCategories);
    }

    /** For messages: "catalog listing", "category listing", and so on. */
    private static String viewOf(ListingFilter filter, String what) {
        return (filter.isWholeCatalog() ? "catalog " : "category ") + what;
    }

    /** Every partition of the store, 0..n-1. */
    List<Integer> allPartitions() {
        return IntStream.range(0, metadata.partitions()).boxed().toList();
    }

    /** One metadata read per call: the active owner of each partition (no standbys: never stale). */
    @Override
    public Function<Integer, Ownership> owners() {
        Map<Integer, Instance> active = metadata.activeOwners(store);
        return partition -> new Ownership(partition, Optional.ofNullable(active.get(partition)), List.of());
    }

    @Override
    public LocalRead<T> local(List<Integer> partitions) {
        return LocalRead.of(local.apply(new TreeSet<>(partitions)));
    }

    @Override
    public PeerRequest request(List<Integer> partitions) {
        return PeerRequest.post(path, body.apply(new TreeSet<>(partitions)), ScatterRequest.CONTENT_TYPE);
    }

    @Override
    public T decode(List<Integer> partitions, byte[] answer) {
        return reader.apply(answer);
    }
}
