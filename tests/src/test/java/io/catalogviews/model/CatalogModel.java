package io.catalogviews.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A plain in-memory reference model of the catalog views, written from CONTRACT.md alone (it shares no code with
 * the production rules, encodings or indexes): a map of live products and a map of remembered versions, and
 * listings, facets and categories computed by brute force over the live products.
 *
 * <p>Event rules (CONTRACT.md §1, for the valid events a history holds): versions strictly increase per product,
 * so an event whose version is ≤ the remembered one is stale and ignored, also after a delete; a delete is applied
 * whether or not the product is held and its version is remembered; a tombstone removes a held product and keeps
 * its remembered version; a price or stock change of a product that is not held (never created, or deleted) is
 * dead-lettered and changes nothing; an upsert collapses duplicate categories in first-seen order and reads a −0
 * rating as 0; price and stock changes set {@code updatedAt} to the event's {@code occurredAt}.
 */
public final class CatalogModel {

    /** What happened to one history record. */
    public enum Outcome { APPLIED, STALE, DEAD_LETTERED }

    /** The contract's sorts (listing parameter {@code sort}), ties by id ascending in UTF-8 byte order. */
    public enum Sort {
        PRICE("price"), PRICE_DESC("-price"), UPDATED_DESC("-updatedAt"), RATING_DESC("-rating");

        private final String wireName;

        Sort(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        Comparator<ModelProduct> comparator() {
            Comparator<ModelProduct> primary = switch (this) {
                case PRICE -> (a, b) -> Long.compare(a.priceCents(), b.priceCents());
                case PRICE_DESC -> (a, b) -> Long.compare(b.priceCents(), a.priceCents());
                case UPDATED_DESC -> (a, b) -> Long.compare(b.updatedAtMs(), a.updatedAtMs());
                case RATING_DESC -> (a, b) -> {
                    if (a.rating() == null || b.rating() == null) {
                        // rated before unrated
                        return Boolean.compare(a.rating() == null, b.rating() == null);
                    }
                    return Double.compare(b.rating().doubleValue(), a.rating().doubleValue());
                };
            };
            return primary.thenComparing(ModelProduct::id, CatalogModel::compareUtf8);
        }
    }

    /**
     * Listing and facet filters.
     *
     * @param category null for the whole catalog
     * @param brands   any of these (sorted, distinct); empty for no brand filter
     */
    public record Filter(String category, SortedSet<String> brands, Long minPrice, Long maxPrice, Boolean inStock) {

        public Filter {
            brands = new TreeSet<>(brands);
        }

        public static Filter category(String category) {
            return new Filter(category, new TreeSet<>(), null, null, null);
        }

        boolean matches(ModelProduct p) {
            return (category == null || p.categories().contains(category))
                    && (brands.isEmpty() || brands.contains(p.brand()))
                    && (minPrice == null || p.priceCents() >= minPrice)
                    && (maxPrice == null || p.priceCents() <= maxPrice)
                    && (inStock == null || inStock == p.inStock());
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("{");
            b.append(category == null ? "whole catalog" : "category=" + category);
            if (!brands.isEmpty()) {
                b.append(", brands=").append(brands);
            }
            if (minPrice != null) {
                b.append(", minPrice=").append(minPrice);
            }
            if (maxPrice != null) {
                b.append(", maxPrice=").append(maxPrice);
            }
            if (inStock != null) {
                b.append(", inStock=").append(inStock);
            }
            return b.append('}').toString();
        }
    }

    public record BrandCount(String value, long count) {
    }

    public record CategoryCount(String category, long count) {
    }

    /**
     * Facets per CONTRACT.md §2.
     *
     * @param brands by count descending, then value ascending, at most {@code brandLimit}
     */
    public record Facets(long total, long inStock, List<BrandCount> brands, Long minPrice, Long maxPrice) {
    }

    private final Map<String, ModelProduct> live = new TreeMap<>();
    private final Map<String, Long> remembered = new HashMap<>();
    private final Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);

    public CatalogModel() {
        for (Outcome o : Outcome.values()) {
            outcomes.put(o, 0L);
        }
    }

    /** Builds a model from a whole history. */
    public static CatalogModel of(Collection<HistoryEvent> history) {
        CatalogModel model = new CatalogModel();
        history.forEach(model::apply);
        return model;
    }

    public Outcome apply(HistoryEvent event) {
        Outcome outcome = decide(event);
        outcomes.merge(outcome, 1L, Long::sum);
        return outcome;
    }

    private Outcome decide(HistoryEvent event) {
        String id = event.productId();
        if (event instanceof HistoryEvent.Tombstone) {
            // A tombstone has no version: it removes a held product and keeps the remembered version.
            live.remove(id);
            return Outcome.APPLIED;
        }
        long version = versionOf(event);
        Long known = remembered.get(id);
        if (known != null && version <= known) {
            return Outcome.STALE;
        }
        ModelProduct held = live.get(id);
        if (event instanceof HistoryEvent.Upsert u) {
            live.put(id, normalised(u.product(), version));
        } else if (event instanceof HistoryEvent.Delete) {
            live.remove(id);
        } else if (event instanceof HistoryEvent.PriceChange p) {
            if (held == null) {
                return Outcome.DEAD_LETTERED;
            }
            live.put(id, held.withPrice(p.priceCents(), p.currency(), p.occurredAtMs(), version));
        } else if (event instanceof HistoryEvent.StockChange s) {
            if (held == null) {
                return Outcome.DEAD_LETTERED;
            }
            live.put(id, held.withStock(s.stock(), s.occurredAtMs(), version));
        }
        remembered.put(id, version);
        return Outcome.APPLIED;
    }

    private static long versionOf(HistoryEvent event) {
        if (event instanceof HistoryEvent.Upsert u) {
            return u.version();
        }
        if (event instanceof HistoryEvent.PriceChange p) {
            return p.version();
        }
        if (event instanceof HistoryEvent.StockChange s) {
            return s.version();
        }
        if (event instanceof HistoryEvent.Delete d) {
            return d.version();
        }
        throw new IllegalArgumentException("a tombstone has no version");
    }

    private static ModelProduct normalised(HistoryEvent.ProductData p, long version) {
        List<String> categories = new ArrayList<>(new LinkedHashSet<>(p.categories()));
        Float rating = p.rating();
        if (rating != null && Float.floatToIntBits(rating) == Float.floatToIntBits(-0f)) {
            rating = 0f;
        }
        return new ModelProduct(p.id(), p.sku(), p.name(), p.brand(), categories, p.priceCents(), p.currency(),
                p.stock(), rating, p.attributes(), p.updatedAtMs(), version);
    }

    // ---------------------------------------------------------------- state

    /** The live product, if the view should hold one. */
    public Optional<ModelProduct> product(String id) {
        return Optional.ofNullable(live.get(id));
    }

    /** Live products by id. */
    public Collection<ModelProduct> products() {
        return live.values();
    }

    /** The version remembered for an id (of its last applied event, a delete included), or null. */
    public Long rememberedVersion(String id) {
        return remembered.get(id);
    }

    /** Every id an applied event remembers, live or deleted. */
    public Collection<String> rememberedIds() {
        return remembered.keySet();
    }

    public long count(Outcome outcome) {
        return outcomes.get(outcome);
    }

    // ---------------------------------------------------------------- queries

    /** Every matching product id in listing order (what a full cursor walk must return). */
    public List<String> listing(Filter filter, Sort sort) {
        return matching(filter).sorted(sort.comparator()).map(ModelProduct::id).toList();
    }

    /** Facets with every matching brand (no cut). */
    public Facets facets(Filter filter) {
        return facets(filter, Integer.MAX_VALUE);
    }

    public Facets facets(Filter filter, int brandLimit) {
        long total = 0;
        long inStock = 0;
        Long min = null;
        Long max = null;
        Map<String, Long> brands = new HashMap<>();
        for (ModelProduct p : (Iterable<ModelProduct>) matching(filter)::iterator) {
            total++;
            if (p.inStock()) {
                inStock++;
            }
            min = min == null ? p.priceCents() : Math.min(min, p.priceCents());
            max = max == null ? p.priceCents() : Math.max(max, p.priceCents());
            brands.merge(p.brand(), 1L, Long::sum);
        }
        List<BrandCount> sorted = brands.entrySet().stream()
                .map(e -> new BrandCount(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingLong(BrandCount::count).reversed().thenComparing(BrandCount::value))
                .limit(brandLimit)
                .toList();
        return new Facets(total, inStock, sorted, min, max);
    }

    /** Every category holding at least one product, by name, with its product count. */
    public List<CategoryCount> categories() {
        Map<String, Long> counts = new TreeMap<>(CatalogModel::compareUtf8);
        for (ModelProduct p : live.values()) {
            for (String c : p.categories()) {
                counts.merge(c, 1L, Long::sum);
            }
        }
        return counts.entrySet().stream().map(e -> new CategoryCount(e.getKey(), e.getValue())).toList();
    }

    private Stream<ModelProduct> matching(Filter filter) {
        return live.values().stream().filter(filter::matches);
    }

    static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
