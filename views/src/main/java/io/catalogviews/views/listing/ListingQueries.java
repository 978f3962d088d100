package io.catalogviews.views.listing;

import java.util.List;
import java.util.Set;

/**
 * Local reads of the sorted index views. Every listing is kept in the product partitions — the whole catalog's scope
 * and each category's — so every query reads the product partitions it is given and merges them (scatter-gather: the
 * caller asks each instance for exactly the partitions it holds and merges the answers). Never throw for a store
 * failure: a partition that is not here or not readable gives {@link ListingResult.Failed}.
 */
public interface ListingQueries {

    /**
     * A page of the query's scope — its category, or the whole catalog when it names none — over the given local
     * product partitions, merged in listing order.
     */
    ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions);

    /**
     * The page {@link #catalogPage} would answer over every partition when it names a category, is kept in memory and
     * every product partition is active here; null otherwise. Never reads a store nor waits, as
     * {@link #keptCategoryFacets}.
     */
    default ListingPage keptCategoryPage(ListingQuery query) {
        return null;
    }

    /** Facets of the filter's scope (its category, or the whole catalog) over the given local product partitions. */
    ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions);

    /**
     * The facets {@link #catalogFacets} would answer over every partition when the filter names a category, they are
     * kept in memory and every product partition is active here; null otherwise. Never reads a store nor waits, so
     * that it may be called on a thread that must not block (HTTP's selector thread); a null sends the caller to
     * {@link #catalogFacets}.
     */
    default FacetCounts keptCategoryFacets(ListingFilter filter) {
        return null;
    }

    /** Non-empty categories of the given local product partitions, with product counts (to be summed). */
    ListingResult<List<CategoryCount>> categories(Set<Integer> partitions);
}
