package io.catalogviews.bench.catalog;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The reference model built from the published events: what every view must answer. Compact enough for
 * 1 000 000 products (about 40 bytes a product): the fields events change (price, stock, {@code updatedAt},
 * version) and the fields filters and sorts read (brand, categories, rating) sit in arrays; the others (sku,
 * name, attributes) are regenerated from the catalog's seed when an answer is checked.
 *
 * <p>Product ids are {@code p-%07d}, so id order in UTF-8 bytes is index order: every sort breaks ties by index.
 * Not thread-safe for writes; reads during the query phases see a model that no longer changes.
 */
public final class CatalogModel {

    /** The listing sorts the harness queries. */
    public enum Sort {
        PRICE("price"), UPDATED_DESC("-updatedAt"), PRICE_DESC("-price");

        public final String wire;

        Sort(String wire) {
            this.wire = wire;
        }
    }

    private final SyntheticCatalog catalog;
    private final UpdateStream updates;
    private final int size;
    private final List<String> categoryNames = SyntheticCatalog.allCategories();
    private final List<String> brandNames = SyntheticCatalog.allBrands();
    private final Map<String, Integer> categoryNumbers = new HashMap<>();
    private final Map<String, Integer> brandNumbers = new HashMap<>();

    private final long[] price;
    private final int[] stock;
    private final long[] updatedAt;
    private final int[] version;
    private final short[] brand;
    private final byte[][] categories;
    private final float[] rating;
    private int[][] members;
    private long nextChange;
    private int upserted;

    public CatalogModel(SyntheticCatalog catalog, int size) {
        this.catalog = catalog;
        this.updates = new UpdateStream(catalog.seed(), size);
        this.size = size;
        for (int i = 0; i < categoryNames.size(); i++) {
            categoryNumbers.put(categoryNames.get(i), i);
        }
        for (int i = 0; i < brandNames.size(); i++) {
            brandNumbers.put(brandNames.get(i), i);
        }
        price = new long[size];
        stock = new int[size];
        updatedAt = new long[size];
        version = new int[size];
        brand = new short[size];
        categories = new byte[size][];
        rating = new float[size];
    }

    public int size() {
        return size;
    }

    public SyntheticCatalog catalog() {
        return catalog;
    }

    // ------------------------------------------------------------------ events

    /** The upsert of product i (version 1), applied to the model. */
    public ProductEvent upsert(int i) {
        SyntheticCatalog.GeneratedProduct g = catalog.product(i);
        price[i] = g.priceCents();
        stock[i] = g.stock();
        updatedAt[i] = g.updatedAtMs();
        version[i] = 1;
        brand[i] = (short) (int) brandNumbers.get(g.brand());
        byte[] cats = new byte[g.categories().size()];
        for (int c = 0; c < cats.length; c++) {
            cats[c] = (byte) (int) categoryNumbers.get(g.categories().get(c));
        }
        categories[i] = cats;
        rating[i] = g.rating() == null ? Float.NaN : g.rating();
        members = null;
        upserted = Math.max(upserted, i + 1);
        Product p = Product.newBuilder()
                .setId(g.id()).setSku(g.sku()).setName(g.name()).setBrand(g.brand())
                .setCategories(g.categories()).setPriceCents(g.priceCents()).setCurrency(g.currency())
                .setStock(g.stock()).setRating(g.rating()).setAttributes(g.attributes())
                .setUpdatedAt(Instant.ofEpochMilli(g.updatedAtMs()))
                .build();
        return ProductEvent.newBuilder()
                .setEventId("bench-" + catalog.seed() + "-u-" + i)
                .setProductId(g.id())
                .setVersion(1)
                .setOccurredAt(Instant.ofEpochMilli(g.updatedAtMs()))
                .setChange(ProductUpserted.newBuilder().setProduct(p).build())
                .build();
    }

    /** The next change of the update stream, applied to the model. */
    public ProductEvent nextChange() {
        long k = nextChange++;
        UpdateStream.Change c = updates.change(k);
        int i = c.product();
        int v = ++version[i];
        updatedAt[i] = c.occurredAtMs();
        Object change;
        if (c.price()) {
            price[i] = c.priceCents();
            change = PriceChanged.newBuilder().setPriceCents(c.priceCents()).setCurrency("EUR").build();
        } else {
            stock[i] = c.stock();
            change = StockChanged.newBuilder().setStock(c.stock()).build();
        }
        return ProductEvent.newBuilder()
                .setEventId("bench-" + catalog.seed() + "-c-" + k)
                .setProductId(SyntheticCatalog.productId(i))
                .setVersion(v)
                .setOccurredAt(Instant.ofEpochMilli(c.occurredAtMs()))
                .setChange(change)
                .build();
    }

    /** How many changes of the update stream have been applied. */
    public long changesApplied() {
        return nextChange;
    }

    /**
     * Products 0 … {@code upserted() - 1} have been published (the catalog is published in index order, possibly in
     * several parts); the others are not in any view yet.
     */
    public int upserted() {
        return upserted;
    }

    /** The index of a product id {@code p-0000042} (the inverse of {@link SyntheticCatalog#productId}). */
    public static int index(String productId) {
        return Integer.parseInt(productId.substring(2));
    }

    // ------------------------------------------------------------------ reads

    public long price(int i) {
        return price[i];
    }

    public int stock(int i) {
        return stock[i];
    }

    public long updatedAt(int i) {
        return updatedAt[i];
    }

    public int version(int i) {
        return version[i];
    }

    public String brand(int i) {
        return brandNames.get(brand[i]);
    }

    public Float rating(int i) {
        return Float.isNaN(rating[i]) ? null : rating[i];
    }

    public List<String> categoriesOf(int i) {
        List<String> names = new ArrayList<>(categories[i].length);
        for (byte c : categories[i]) {
            names.add(categoryNames.get(c));
        }
        return names;
    }

    /** The contract JSON the views must serve for product i now. */
    public String json(int i) {
        SyntheticCatalog.GeneratedProduct g = catalog.product(i);
        return ProductJsonText.render(g.id(), g.sku(), g.name(), g.brand(), g.categories(), price[i], "EUR",
                stock[i], g.rating(), g.attributes(), updatedAt[i], version[i]);
    }

    public List<String> categoryNames() {
        return categoryNames;
    }

    public int categoryNumber(String name) {
        return categoryNumbers.get(name);
    }

    public int brandNumber(String name) {
        return brandNumbers.get(name);
    }

    public String brandName(int number) {
        return brandNames.get(number);
    }

    /** Products of each category, by category number, in index order (of the products upserted so far). */
    public synchronized int[] members(int category) {
        if (members == null) {
            int[] counts = new int[categoryNames.size()];
            for (int i = 0; i < upserted; i++) {
                for (byte c : categories[i]) {
                    counts[c]++;
                }
            }
            int[][] m = new int[counts.length][];
            for (int c = 0; c < counts.length; c++) {
                m[c] = new int[counts[c]];
            }
            int[] fill = new int[counts.length];
            for (int i = 0; i < upserted; i++) {
                for (byte c : categories[i]) {
                    m[c][fill[c]++] = i;
                }
            }
            members = m;
        }
        return members[category];
    }

    /** Product count of every non-empty category, by name (UTF-8 byte order equals String order here: ASCII). */
    public Map<String, Long> categoryCounts() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (int c = 0; c < categoryNames.size(); c++) {
            int n = members(c).length;
            if (n > 0) {
                counts.put(categoryNames.get(c), (long) n);
            }
        }
        return counts;
    }

    /**
     * Every product matching {@code filter} among {@code candidates} (a category's members, or all products when
     * null), in listing order of {@code sort}.
     */
    public int[] listing(int[] candidates, IntPredicate filter, Sort sort) {
        int n = candidates == null ? upserted : candidates.length;
        long[] keys = new long[n];
        int count = 0;
        for (int k = 0; k < n; k++) {
            int i = candidates == null ? k : candidates[k];
            if (filter.test(i)) {
                keys[count++] = sortKey(i, sort);
            }
        }
        Arrays.sort(keys, 0, count);
        int[] out = new int[count];
        for (int k = 0; k < count; k++) {
            out[k] = (int) (keys[k] & INDEX_MASK);
        }
        return out;
    }

    private static final long INDEX_MASK = (1L << 21) - 1;

    /** (sort value, index) packed in a long that sorts as the listing does; the index breaks ties (id order). */
    private long sortKey(int i, Sort sort) {
        long value = switch (sort) {
            case PRICE -> price[i];
            case UPDATED_DESC -> (1L << 42) - updatedAt[i];
            case PRICE_DESC -> (1L << 42) - price[i];
        };
        if (value < 0 || value >= (1L << 42) || size > INDEX_MASK) {
            throw new IllegalStateException("sort value or catalog size outside the packed key: " + value);
        }
        return value << 21 | i;
    }

    /** A predicate on brand number (or any brand when negative) and an inclusive price range. */
    public IntPredicate filter(int brandNumber, long minPrice, long maxPrice) {
        return i -> (brandNumber < 0 || brand[i] == brandNumber) && price[i] >= minPrice && price[i] <= maxPrice;
    }
}
