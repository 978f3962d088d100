package io.catalogviews.views.listing.internals;

import io.catalogviews.views.store.RowKeys;
import io.catalogviews.views.ids.ProductId;

import io.catalogviews.views.index.IndexWriter;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.index.SortedMapStore;
import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.index.TestValues;
import io.catalogviews.views.listing.CategoryCount;
import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.ListingQuery;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.query.KeyPartitioner;
import org.apache.kafka.common.utils.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The stores of a catalog spread over partitions as the topology spreads them (product partitions by id, each holding
 * the whole catalog's and each category's scope of its products), written through the topology's
 * {@link IndexWriter} and row encodings; plus a brute-force reference of what listings, facets and categories should
 * answer.
 */
final class TestCatalog {

    record Product(String id, List<String> categories, ListingEntry entry) {
        TestValues.Fields fields() {
            return new TestValues.Fields(id, entry.priceCents(), entry.updatedAtMs(), entry.rating());
        }
    }

    static final class Partition {
        final SortedMapStore<Bytes> products = new SortedMapStore<>("product-view");
        final SortedMapStore<Bytes> catalogIndex = new SortedMapStore<>("catalog-index");
        final SortedMapStore<Bytes> catalogFacets = new SortedMapStore<>("catalog-facets");
        final SortedMapStore<Bytes> categoryIndex = new SortedMapStore<>("category-index");
        final SortedMapStore<Bytes> categoryFacets = new SortedMapStore<>("category-facets");

        List<SortedMapStore<?>> stores() {
            return List.of(products, catalogIndex, catalogFacets, categoryIndex, categoryFacets);
        }
    }

    final int partitionCount;
    final List<Partition> partitions = new ArrayList<>();
    final Map<String, Product> products = new TreeMap<>();
    ListingEngine engine = new ListingEngine();

    TestCatalog(int partitionCount) {
        this.partitionCount = partitionCount;
        for (int i = 0; i < partitionCount; i++) {
            partitions.add(new Partition());
        }
    }

    /** Reads from now on with an engine whose scans examine at most {@code budget} entries. */
    TestCatalog withScanBudget(long budget) {
        engine = new ListingEngine(budget);
        return this;
    }

    /** Index entries read from every partition's indexes since the counters were last reset. */
    long indexEntriesRead() {
        long read = 0;
        for (Partition p : partitions) {
            read += p.catalogIndex.entriesRead() + p.categoryIndex.entriesRead();
        }
        return read;
    }

    void resetCounters() {
        for (Partition p : partitions) {
            p.stores().forEach(SortedMapStore::resetCounters);
        }
    }

    static byte[] jsonOf(String id, long version) {
        return ("{\"id\":\"" + id + "\",\"version\":" + version + "}").getBytes(StandardCharsets.UTF_8);
    }

    Partition productPartition(String id) {
        return partitions.get(KeyPartitioner.partitionOf(id, partitionCount));
    }

    /** Applies a product state (a new product, or a change of one) as the product task would. */
    void put(Product next) {
        Product old = products.get(next.id());
        Partition p = productPartition(next.id());
        new IndexWriter(p.catalogIndex, p.catalogFacets).replace(null, next.id(), old == null ? null : old.entry(),
                next.entry());
        p.products.put(RowKeys.product(new ProductId(next.id())),
                ProductRow.live(next.entry().version(), next.entry().json(), new byte[] {1, 2}).encode());
        if (old != null) {
            for (String category : old.categories()) {
                if (!next.categories().contains(category)) {
                    new IndexWriter(p.categoryIndex, p.categoryFacets).replace(category, next.id(), old.entry(), null);
                }
            }
        }
        for (String category : next.categories()) {
            ListingEntry before = old != null && old.categories().contains(category) ? old.entry() : null;
            new IndexWriter(p.categoryIndex, p.categoryFacets).replace(category, next.id(), before, next.entry());
        }
        products.put(next.id(), next);
    }

    /** Deletes a product as the product task would (the product view keeps a deletion marker). */
    void delete(String id) {
        Product old = products.remove(id);
        if (old == null) {
            return;
        }
        Partition p = productPartition(id);
        new IndexWriter(p.catalogIndex, p.catalogFacets).replace(null, id, old.entry(), null);
        p.products.put(RowKeys.product(new ProductId(id)), ProductRow.deletionMarker(old.entry().version() + 1, 1L).encode());
        for (String category : old.categories()) {
            new IndexWriter(p.categoryIndex, p.categoryFacets).replace(category, id, old.entry(), null);
        }
    }

    // ---- the engine over these stores, as StreamsListingQueries uses it ----

    ListingPage page(ListingQuery q) {
        return engine.catalogPage(stores(q.filter().category()), id -> KeyPartitioner.partitionOf(id, partitionCount),
                q);
    }

    /** Every partition, with the indexes of the scope of {@code category} (null: the whole catalog). */
    Map<Integer, ListingEngine.CatalogPartition> stores(String category) {
        Map<Integer, ListingEngine.CatalogPartition> parts = new TreeMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            Partition p = partitions.get(i);
            parts.put(i, new ListingEngine.CatalogPartition(category == null ? p.catalogIndex : p.categoryIndex,
                    RowReader.productRows(p.products)));
        }
        return parts;
    }

    FacetCounts facets(ListingFilter f) {
        String category = f.category();
        List<FacetCounts> parts = new ArrayList<>();
        for (Partition p : partitions) {
            parts.add(category == null ? engine.facets(p.catalogIndex, p.catalogFacets, null, f)
                    : engine.facets(p.categoryIndex, p.categoryFacets, category, f));
        }
        return ListingEngine.mergeFacets(parts);
    }

    List<CategoryCount> categories() {
        Map<String, Long> counts = new TreeMap<>();
        for (Partition p : partitions) {
            for (CategoryCount c : engine.categories(p.categoryFacets)) {
                counts.merge(c.category(), c.count(), Long::sum);
            }
        }
        List<CategoryCount> out = new ArrayList<>();
        counts.forEach((k, v) -> out.add(new CategoryCount(k, v)));
        return out;
    }

    int openIterators() {
        int open = 0;
        for (Partition p : partitions) {
            for (SortedMapStore<?> s : p.stores()) {
                open += s.openIterators();
            }
        }
        return open;
    }

    // ---- the brute-force reference ----

    static boolean matches(Product p, ListingFilter f) {
        return (f.category() == null || p.categories().contains(f.category()))
                && (f.brands().isEmpty() || f.brands().contains(p.entry().brand()))
                && (f.minPrice() == null || p.entry().priceCents() >= f.minPrice())
                && (f.maxPrice() == null || p.entry().priceCents() <= f.maxPrice())
                && (f.inStock() == null || f.inStock() == p.entry().inStock());
    }

    List<Product> reference(ListingFilter f, SortOrder sort) {
        Comparator<Product> order = Comparator.comparing(Product::fields, TestValues.logicalOrder(sort));
        return products.values().stream().filter(p -> matches(p, f)).sorted(order).toList();
    }

    FacetCounts referenceFacets(ListingFilter f) {
        List<Product> matching = products.values().stream().filter(p -> matches(p, f)).toList();
        if (matching.isEmpty()) {
            return FacetCounts.EMPTY;
        }
        Map<String, Long> brands = new HashMap<>();
        matching.forEach(p -> brands.merge(p.entry().brand(), 1L, Long::sum));
        return new FacetCounts(matching.size(), matching.stream().filter(p -> p.entry().inStock()).count(), brands,
                matching.stream().mapToLong(p -> p.entry().priceCents()).min().getAsLong(),
                matching.stream().mapToLong(p -> p.entry().priceCents()).max().getAsLong());
    }

    List<CategoryCount> referenceCategories() {
        Map<String, Long> counts = new TreeMap<>();
        for (Product p : products.values()) {
            for (String c : p.categories()) {
                counts.merge(c, 1L, Long::sum);
            }
        }
        List<CategoryCount> out = new ArrayList<>();
        counts.forEach((k, v) -> out.add(new CategoryCount(k, v)));
        return out;
    }

    static List<String> distinct(Collection<String> values) {
        return List.copyOf(new LinkedHashSet<>(values));
    }

    static Set<String> ids(List<Product> products) {
        Set<String> out = new LinkedHashSet<>();
        products.forEach(p -> out.add(p.id()));
        return out;
    }
}
