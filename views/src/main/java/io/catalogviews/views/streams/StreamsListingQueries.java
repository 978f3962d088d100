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
import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.listing.internals.RowReader;
import io.catalogviews.views.listing.internals.StoreUnavailableException;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.query.QueryFailure;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
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
 * {@link ListingQueries} over the local partitions of the sorted index views, through Kafka Streams interactive
 * queries (active tasks only; the {@code FromAnyReplica} reads, for failover, also read standby and restoring
 * copies and report their lag). Category queries read the one category partition of the category (the
 * repartition topic has the input topic's partition count and the same murmur2 rule on the category's UTF-8
 * bytes); whole-catalog queries merge the index ranges of every requested product partition as they read them
 * and read the rows of the merged page only ({@link ListingEngine#catalogPage}). A partition
 * that is not hosted here, or cannot be read now, makes the whole answer a
 * {@link ListingResult.Failed}: never a shorter page. No Kafka Streams exception escapes.
 *
 * <p>Given the category view's commits, the facets of a category are kept between the commits that change it
 * ({@link FacetCache}): a facet request then checks that the partition is still active here and answers from
 * memory. Given the commits with the index keys they wrote, whole-catalog pages and category pages are kept likewise
 * until a commit writes where they were read ({@link PageCache}).
 */
public final class StreamsListingQueries implements ListingQueries {

    private final KafkaStreams streams;
    private final int partitions;
    /** Index entries one scan examines unless configured (see {@link ListingEngine#DEFAULT_SCAN_BUDGET}). */
    public static final long DEFAULT_SCAN_BUDGET = ListingEngine.DEFAULT_SCAN_BUDGET;

    private final ListingEngine engine;
    /** Null when nobody reports the category view's commits: then nothing may be kept. */
    private final FacetCache facetCache;
    /** Null when nobody reports the product view's commits: then no whole-catalog page is kept. */
    private final PageCache pageCache;
    /** Null when nobody reports the category view's commits: then no category page is kept. */
    private final PageCache categoryPageCache;
    private final ActiveStoreHandles handles;

    /**
     * @param partitions the partition count of the input topic, which the product and category views mirror
     */
    public StreamsListingQueries(KafkaStreams streams, int partitions) {
        this(streams, partitions, ListingEngine.DEFAULT_SCAN_BUDGET);
    }

    public StreamsListingQueries(KafkaStreams streams, int partitions, long scanBudget) {
        this(streams, partitions, scanBudget, null, null, null, ActiveStoreHandles.perRequest(streams));
    }

    /**
     * @param partitions the partition count of the input topic, which the product and category views mirror
     * @param scanBudget index entries one scan may examine: a page of a category, of each product partition of a
     *                   whole-catalog page, or the facets of one partition
     * @param facetCache where facets of categories are kept between the commits that change them (fed by this
     *                   instance's category commits, {@link FacetCache#listeningTo}); null to keep none
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
        this.engine = new ListingEngine(scanBudget);
        this.facetCache = facetCache;
        this.pageCache = pageCache;
        this.categoryPageCache = categoryPageCache;
        this.handles = handles;
    }

    @Override
    public ListingResult<ListingPage> categoryPage(ListingQuery query) {
        CategoryName category = categoryOf(query.filter());
        int partition = KeyPartitioner.partitionOf(category.value(), partitions);
        return guarded(() -> {
            ReadOnlyKeyValueStore<Bytes, byte[]> listings = bytesStore(StoreNames.CATEGORY_LISTINGS, partition);
            if (categoryPageCache == null) {
                return engine.page(NamespacedStore.index(listings), RowReader.categoryRows(listings, category),
                        category.value(), query);
            }
            Set<Integer> read = Set.of(partition);
            ListingPage kept = categoryPageCache.get(query, read);
            if (kept != null) {
                return kept;
            }
            long stamp = categoryPageCache.stamp();
            ListingEngine.PageAnswer answer = engine.pageAnswer(NamespacedStore.index(listings),
                    RowReader.categoryRows(listings, category), category.value(), query);
            categoryPageCache.keep(query, read, stamp, answer);
            return answer.page();
        });
    }

    @Override
    public ListingResult<FacetCounts> categoryFacets(ListingFilter filter) {
        CategoryName category = categoryOf(filter);
        int partition = KeyPartitioner.partitionOf(category.value(), partitions);
        return guarded(() -> {
            ReadOnlyKeyValueStore<Bytes, byte[]> listings = bytesStore(StoreNames.CATEGORY_LISTINGS, partition);
            if (facetCache == null) {
                return countFacets(listings, category, filter);
            }
            FacetCounts kept = facetCache.get(filter, partition);
            if (kept != null) {
                return kept;
            }
            long stamp = facetCache.stamp();
            FacetCounts counted = countFacets(listings, category, filter);
            facetCache.keep(filter, partition, stamp, counted);
            return counted;
        });
    }

    private FacetCounts countFacets(ReadOnlyKeyValueStore<Bytes, byte[]> listings, CategoryName category,
                                    ListingFilter filter) {
        return engine.facets(NamespacedStore.index(listings), NamespacedStore.facets(listings), category.value(),
                filter);
    }

    @Override
    public ReplicaRead<ListingPage> categoryPageFromAnyReplica(ListingQuery query) {
        CategoryName category = categoryOf(query.filter());
        int partition = KeyPartitioner.partitionOf(category.value(), partitions);
        long lag = LocalLags.of(streams, StoreNames.CATEGORY_LISTINGS, partition);
        return new ReplicaRead<>(guarded(() -> {
            ReadOnlyKeyValueStore<Bytes, byte[]> listings = anyReplica(StoreNames.CATEGORY_LISTINGS, partition);
            return engine.page(NamespacedStore.index(listings), RowReader.categoryRows(listings, category), category.value(),
                    query);
        }), lag);
    }

    @Override
    public FacetCounts keptCategoryFacets(ListingFilter filter) {
        int partition = activeCategoryPartition(facetCache, filter);
        return partition < 0 ? null : facetCache.get(filter, partition);
    }

    @Override
    public ListingPage keptCategoryPage(ListingQuery query) {
        int partition = activeCategoryPartition(categoryPageCache, query.filter());
        return partition < 0 ? null : categoryPageCache.get(query, Set.of(partition));
    }

    /**
     * The partition of {@code filter}'s category when something may be kept for it ({@code cache} is not null) and
     * it is active here, else -1. As in {@link #categoryPage} and {@link #categoryFacets}, a kept answer is served
     * only while its partition is active here; no store is read.
     */
    private int activeCategoryPartition(Object cache, ListingFilter filter) {
        if (cache == null || filter.category() == null) {
            return -1;
        }
        int partition = KeyPartitioner.partitionOf(filter.category(), partitions);
        try {
            bytesStore(StoreNames.CATEGORY_LISTINGS, partition);
        } catch (StoreUnavailableException e) {
            return -1;
        }
        return partition;
    }

    @Override
    public ReplicaRead<FacetCounts> categoryFacetsFromAnyReplica(ListingFilter filter) {
        CategoryName category = categoryOf(filter);
        int partition = KeyPartitioner.partitionOf(category.value(), partitions);
        long lag = LocalLags.of(streams, StoreNames.CATEGORY_LISTINGS, partition);
        return new ReplicaRead<>(guarded(() -> countFacets(anyReplica(StoreNames.CATEGORY_LISTINGS, partition),
                category, filter)), lag);
    }

    @Override
    public ListingResult<ListingPage> catalogPage(ListingQuery query, Set<Integer> partitions) {
        return guarded(() -> {
            Map<Integer, ListingEngine.CatalogPartition> stores = new TreeMap<>();
            for (int partition : partitions) {
                // Also when the page is kept: it may be served only while every partition is active here.
                ReadOnlyKeyValueStore<Bytes, byte[]> products = bytesStore(StoreNames.PRODUCTS, partition);
                stores.put(partition, new ListingEngine.CatalogPartition(NamespacedStore.index(products),
                        RowReader.productRows(products)));
            }
            if (pageCache == null) {
                return engine.catalogPage(stores, id -> KeyPartitioner.partitionOf(id, this.partitions), query);
            }
            ListingPage kept = pageCache.get(query, partitions);
            if (kept != null) {
                return kept;
            }
            long stamp = pageCache.stamp();
            ListingEngine.PageAnswer answer = engine.catalogAnswer(stores,
                    id -> KeyPartitioner.partitionOf(id, this.partitions), query);
            pageCache.keep(query, partitions, stamp, answer);
            return answer.page();
        });
    }

    @Override
    public ListingResult<FacetCounts> catalogFacets(ListingFilter filter, Set<Integer> partitions) {
        return guarded(() -> {
            List<FacetCounts> parts = new ArrayList<>(partitions.size());
            for (int partition : new TreeSet<>(partitions)) {
                ReadOnlyKeyValueStore<Bytes, byte[]> products = bytesStore(StoreNames.PRODUCTS, partition);
                parts.add(engine.facets(NamespacedStore.index(products), NamespacedStore.facets(products), null,
                        filter));
            }
            return ListingEngine.mergeFacets(parts);
        });
    }

    @Override
    public ListingResult<List<CategoryCount>> categories(Set<Integer> partitions) {
        return guarded(() -> {
            Map<String, Long> counts = new TreeMap<>();
            for (int partition : new TreeSet<>(partitions)) {
                for (CategoryCount c : engine.categories(
                        NamespacedStore.facets(bytesStore(StoreNames.CATEGORY_LISTINGS, partition)))) {
                    counts.merge(c.category(), c.count(), Long::sum);
                }
            }
            List<CategoryCount> out = new ArrayList<>(counts.size());
            counts.forEach((category, count) -> out.add(new CategoryCount(category, count)));
            return List.copyOf(out);
        });
    }

    private static CategoryName categoryOf(ListingFilter filter) {
        if (filter.category() == null) {
            throw new IllegalArgumentException("a category query needs a category");
        }
        return new CategoryName(filter.category());
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

    private ReadOnlyKeyValueStore<Bytes, byte[]> bytesStore(String name, int partition) {
        return store(name, partition, false);
    }

    /** Any local copy of the partition's store: active, restoring or standby (lag-checked by the caller). */
    private ReadOnlyKeyValueStore<Bytes, byte[]> anyReplica(String name, int partition) {
        return store(name, partition, true);
    }

    /** The partition's store, guarded; throws {@link StoreUnavailableException} when it cannot be read here. */
    private <K> ReadOnlyKeyValueStore<K, byte[]> store(String name, int partition, boolean anyReplica) {
        ReadOnlyKeyValueStore<K, byte[]> store;
        try {
            store = anyReplica ? streams.store(StoreQueryParameters
                    .fromNameAndType(name, new PinnedStoreType<K, byte[]>())
                    .withPartition(partition).enableStaleStores()) : handles.active(name, partition);
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
