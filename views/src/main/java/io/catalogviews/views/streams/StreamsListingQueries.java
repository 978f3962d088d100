package io.catalogviews.views.streams;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQueries;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.listing.internals.PageCache;
import io.catalogviews.views.listing.internals.FacetCache;
import io.catalogviews.views.listing.internals.GuardedStore;
import io.catalogviews.views.listing.internals.NamespacedStore;
import io.catalogviews.views.listing.internals.ListingEngine;
import io.catalogviews.views.listing.internals.RowReader;
import io.catalogviews.views.listing.internals.StoreUnavailableException;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.query.QueryFailure;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@link ListingQueries} over the local partitions of the product view, through Kafka Streams interactive queries
 * (active tasks only: these answers are never stale). Every listing merges the index ranges of every requested
 * product partition as it reads them, in the query's scope — the category scopes' namespaces when it names a
 * category, the whole catalog's otherwise — and reads the rows of the merged page only
 * ({@link ListingEngine#catalogPage}). A partition that is not hosted here, or cannot be read now, makes the whole
 * answer a {@link ListingResult.Failed}: never a shorter page. No Kafka Streams exception escapes.
 *
 * <p>Given the commits with what they wrote, pages are kept in memory until a commit writes where they were read
 * ({@link PageCache}: one for whole-catalog pages, one for category pages), and a category's facets until a commit
 * changes the category ({@link FacetCache}); a kept answer is served only while every partition it was read from is
 * still active here.
 */
public final class StreamsListingQueries implements ListingQueries {

    private final KafkaStreams streams;
    private final int partitions;
    /** Every product partition, 0..n-1: what a kept category answer is read over. */
    private final Set<Integer> allPartitions;
    /** Index entries one scan examines unless configured (see {@link ListingEngine#DEFAULT_SCAN_BUDGET}). */
    public static final long DEFAULT_SCAN_BUDGET = ListingEngine.DEFAULT_SCAN_BUDGET;

    private final ListingEngine engine;
    /** Null when nobody reports which categories the commits change: then no category's facets are kept. */
    private final FacetCache facetCache;
    /** Null when nobody reports the whole catalog's index keys of the commits: then no whole-catalog page is kept. */
    private final PageCache pageCache;
    /** Null when nobody reports the category scopes' index keys of the commits: then no category page is kept. */
    private final PageCache categoryPageCache;
    private final ActiveStoreHandles handles;

    /**
     * @param partitions the partition count of the input topic, which the product view mirrors
     */
    public StreamsListingQueries(KafkaStreams streams, int partitions) {
        this(streams, partitions, ListingEngine.DEFAULT_SCAN_BUDGET);
    }

    public StreamsListingQueries(KafkaStreams streams, int partitions, long scanBudget) {
        this(streams, partitions, scanBudget, null, null, null, ActiveStoreHandles.perRequest(streams));
    }

    /**
     * @param partitions the partition count of the input topic, which the product view mirrors
     * @param scanBudget index entries one scan may examine: of each product partition of a page, or of the facets
     *                   of one partition
     * @param facetCache where facets of categories are kept between the commits that change them (fed by this
     *                   instance's product commits, {@link FacetCache#listeningTo}); null to keep none
     * @param pageCache  where whole-catalog pages are kept between the commits that change them (fed by this
     *                   instance's product commits, {@link PageCache#ofCatalogPages}); null to keep none
     * @param categoryPageCache where category pages are kept likewise ({@link PageCache#ofCategoryPages}); null to
     *                   keep none
     * @param handles    the active stores' handles kept between requests ({@link ActiveStoreHandles}), or
     *                   {@link ActiveStoreHandles#perRequest} to keep none
     */
    public StreamsListingQueries(KafkaStreams streams, int partitions, long scanBudget, FacetCache facetCache,
                                 PageCache pageCache, PageCache categoryPageCache, ActiveStoreHandles handles) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partition count must be at least 1, not " + partitions);
        }
        this.streams = streams;
        this.partitions = partitions;
        Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < partitions; p++) {
            all.add(p);
        }
        this.allPartitions = Set.copyOf(all);
        this.engine = new ListingEngine(scanBudget);
        this.facetCache = facetCache;
        this.pageCache = pageCache;
        this.categoryPageCache = categoryPageCache;
        this.handles = handles;
    }

    @Override
    public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
        String category = query.filter().category();
        PageCache cache = category == null ? pageCache : categoryPageCache;
        return guarded(() -> {
            Map<Integer, ListingEngine.CatalogPartition> stores = new TreeMap<>();
            for (int partition : partitions) {
                // Also when the page is kept: it may be served only while every partition is active here.
                ReadOnlyKeyValueStore<Bytes, byte[]> products = bytesStore(StoreNames.PRODUCTS, partition);
                stores.put(partition, new ListingEngine.CatalogPartition(NamespacedStore.index(products, category),
                        RowReader.productRows(products)));
            }
            if (cache == null) {
                return engine.catalogPage(stores, id -> KeyPartitioner.partitionOf(id, this.partitions), query);
            }
            ListingPage kept = cache.get(query, partitions);
            if (kept != null) {
                return kept;
            }
            long stamp = cache.stamp();
            ListingEngine.PageAnswer answer = engine.catalogAnswer(stores,
                    id -> KeyPartitioner.partitionOf(id, this.partitions), query);
            cache.keep(query, partitions, stamp, answer);
            return answer.page();
        });
    }

    @Override
    public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
        String category = filter.category();
        FacetCache cache = category == null ? null : facetCache;
        return guarded(() -> {
            List<ReadOnlyKeyValueStore<Bytes, byte[]>> stores = new ArrayList<>(partitions.size());
            for (int partition : new TreeSet<>(partitions)) {
                // Also when the facets are kept: they may be served only while every partition is active here.
                stores.add(bytesStore(StoreNames.PRODUCTS, partition));
            }
            if (cache == null) {
                return countFacets(stores, filter);
            }
            FacetCounts kept = cache.get(filter, partitions);
            if (kept != null) {
                return kept;
            }
            long stamp = cache.stamp();
            FacetCounts counted = countFacets(stores, filter);
            cache.keep(filter, partitions, stamp, counted);
            return counted;
        });
    }

    private FacetCounts countFacets(List<ReadOnlyKeyValueStore<Bytes, byte[]>> products, ListingFilter filter) {
        List<FacetCounts> parts = new ArrayList<>(products.size());
        for (ReadOnlyKeyValueStore<Bytes, byte[]> partition : products) {
            parts.add(engine.facets(NamespacedStore.index(partition, filter.category()),
                    NamespacedStore.facets(partition, filter.category()), filter.category(), filter));
        }
        return ListingEngine.mergeFacets(parts);
    }

    @Override
    public FacetCounts keptCategoryFacets(ListingFilter filter) {
        return facetCache == null || filter.category() == null || !everyPartitionActive() ? null
                : facetCache.get(filter, allPartitions);
    }

    @Override
    public ListingPage keptCategoryPage(ListingQuery query) {
        return categoryPageCache == null || query.filter().category() == null || !everyPartitionActive() ? null
                : categoryPageCache.get(query, allPartitions);
    }

    /**
     * Whether every product partition's active copy is here and readable, as {@link #catalogPage} and
     * {@link #catalogFacets} check before they serve what they kept; no store is read.
     */
    private boolean everyPartitionActive() {
        try {
            for (int partition = 0; partition < partitions; partition++) {
                bytesStore(StoreNames.PRODUCTS, partition);
            }
        } catch (StoreUnavailableException e) {
            return false;
        }
        return true;
    }

    @Override
    public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
        return guarded(() -> {
            Map<String, Long> counts = new TreeMap<>();
            for (int partition : new TreeSet<>(partitions)) {
                for (CategoryCount c : engine.categories(NamespacedStore.categoryFacets(
                        bytesStore(StoreNames.PRODUCTS, partition)))) {
                    counts.merge(c.category(), c.count(), Long::sum);
                }
            }
            List<CategoryCount> out = new ArrayList<>(counts.size());
            counts.forEach((category, count) -> out.add(new CategoryCount(category, count)));
            return List.copyOf(out);
        });
    }

    private static <T> ListingResult<T> guarded(Supplier<T> query) {
        try {
            return new ListingResult.Ok<>(query.get());
        } catch (StoreUnavailableException e) {
            return new ListingResult.Failed<>(e.failure());
        } catch (StreamsException e) {
            // Not raised through a guarded store (should not happen): still never escapes.
            return new ListingResult.Failed<>(QueryFailure.retryLater("listing query failed: " + e.getMessage()));
        }
    }

    /** The partition's active store, guarded; throws {@link StoreUnavailableException} when it cannot be read here. */
    private ReadOnlyKeyValueStore<Bytes, byte[]> bytesStore(String name, int partition) {
        ReadOnlyKeyValueStore<Bytes, byte[]> store;
        try {
            store = handles.active(name, partition);
        } catch (StreamsException e) {
            // Not started, not running or rebalancing (InvalidStateStoreException and its kinds).
            throw new StoreUnavailableException(GuardedStore.classify(e, name, partition, streams::state), e);
        } catch (IllegalStateException e) {
            // KafkaStreams is shutting down, stopped or failed: the partition may be served again elsewhere.
            throw new StoreUnavailableException(QueryFailure.retryLater("store " + name + " partition " + partition
                    + " cannot be queried now (" + streams.state() + "): " + e.getMessage()), e);
        }
        return new GuardedStore<>(store, name, partition, streams::state);
    }
}
