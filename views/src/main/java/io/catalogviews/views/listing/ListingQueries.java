package io.catalogviews.views.listing;

import java.util.List;
import java.util.Set;

/**
 * Local reads of the sorted index views. Category queries read the one category partition that owns the
 * category; whole-catalog queries read the product partitions they are given (scatter-gather: the caller
 * asks each instance for exactly the partitions it holds and merges the answers). Never throw for a store
 * failure: a partition that is not here or not readable gives {@link ListingResult.Failed}.
 */
public interface ListingQueries {

    /** A page of {@code query.filter().category()}, from its local category partition. */
    ListingResult<ListingPage> categoryPage(ListingQuery query);

    /**
     * The page {@link #categoryPage} would answer when it is kept in memory and the category's partition is active
     * here; null otherwise. Never reads a store nor waits, as {@link #keptCategoryFacets}.
     */
    default ListingPage keptCategoryPage(ListingQuery query) {
        return null;
    }

    /** Facets of a category with filters; every matching brand counted. */
    ListingResult<FacetCounts> categoryFacets(ListingFilter filter);

    /**
     * The facets {@link #categoryFacets} would answer when they are kept in memory and the category's partition is
     * active here; null otherwise. Never reads a store nor waits, so that it may be called on a thread that must not
     * block (HTTP's selector thread); a null sends the caller to {@link #categoryFacets}.
     */
    default FacetCounts keptCategoryFacets(ListingFilter filter) {
        return null;
    }

    /**
     * A page of a category from any local copy of its partition, active or standby (failover reads while the
     * active owner cannot answer), with how many changelog records that copy is behind.
     */
    ReplicaRead<ListingPage> categoryPageFromAnyReplica(ListingQuery query);

    /** Facets of a category from any local copy of its partition, as {@link #categoryPageFromAnyReplica}. */
    ReplicaRead<FacetCounts> categoryFacetsFromAnyReplica(ListingFilter filter);

    /** A whole-catalog page over the given local product partitions, merged in listing order. */
    ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions);

    /** Whole-catalog facets over the given local product partitions. */
    ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions);

    /** Non-empty categories of the given local category partitions, with product counts. */
    ListingResult<List<CategoryCount>> categories(Set<Integer> partitions);

    /** A listing read from a replica that may lag: {@code lagRecords} is -1 when unknown. */
    record ReplicaRead<T>(ListingResult<T> result, long lagRecords) {
    }
}
