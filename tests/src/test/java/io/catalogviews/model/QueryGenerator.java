package io.catalogviews.model;

import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Seeded random listing queries: a category (or the whole catalog, or a category nobody uses, or a prefix of one),
 * 0–3 brands (unknown ones and case or prefix variants included), price bounds (none, one, a range, min == max on a
 * price many products share, ranges that match nothing), {@code inStock} true, false or absent, every sort, and
 * limits 1..200 biased to small ones (1, 2, 7) so that cursor walks are long.
 */
public final class QueryGenerator {

    /** Categories no product is in; "phon" is a prefix of real ones. */
    static final List<String> UNKNOWN_CATEGORIES = List.of("phon", "tablets", "zz");

    /** Brands no product has; prefixes and case variants of real ones. */
    static final List<String> UNKNOWN_BRANDS = List.of("acm", "Big", "ACME", "nope", "Smith", "tail-1");

    /** One listing query: filters, sort and page size. */
    public record Query(CatalogModel.Filter filter, CatalogModel.Sort sort, int limit) {
        @Override
        public String toString() {
            return filter + " sort=" + sort.wireName() + " limit=" + limit;
        }
    }

    private final SplittableRandom rnd;

    public QueryGenerator(long seed) {
        this.rnd = new SplittableRandom(seed);
    }

    public Query next() {
        CatalogModel.Filter filter = nextFilter();
        CatalogModel.Sort sort = CatalogModel.Sort.values()[rnd.nextInt(CatalogModel.Sort.values().length)];
        return new Query(filter, sort, nextLimit());
    }

    public int nextLimit() {
        int roll = rnd.nextInt(100);
        if (roll < 35) {
            return new int[]{1, 2, 7}[rnd.nextInt(3)];
        }
        if (roll < 70) {
            return 1 + rnd.nextInt(20);
        }
        return 1 + rnd.nextInt(200);
    }

    public CatalogModel.Filter nextFilter() {
        String category = category();
        TreeSet<String> brands = brands();
        Long[] bounds = priceBounds();
        return new CatalogModel.Filter(category, brands, bounds[0], bounds[1], inStock());
    }

    /** A brand limit for facets: small ones cut the brand list. */
    public int nextBrandLimit() {
        return rnd.nextInt(3) == 0 ? 100 : 1 + rnd.nextInt(12);
    }

    private String category() {
        int roll = rnd.nextInt(100);
        if (roll < 25) {
            return null;
        }
        if (roll < 92) {
            return HistoryGenerator.CATEGORIES.get(rnd.nextInt(HistoryGenerator.CATEGORIES.size()));
        }
        return UNKNOWN_CATEGORIES.get(rnd.nextInt(UNKNOWN_CATEGORIES.size()));
    }

    private TreeSet<String> brands() {
        TreeSet<String> brands = new TreeSet<>();
        if (rnd.nextBoolean()) {
            return brands;
        }
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            int roll = rnd.nextInt(100);
            List<String> from = roll < 65 ? HistoryGenerator.BRANDS
                    : roll < 85 ? HistoryGenerator.TAIL_BRANDS : UNKNOWN_BRANDS;
            brands.add(from.get(rnd.nextInt(from.size())));
        }
        return brands;
    }

    /** {min, max}, either null; min ≤ max (the contract answers 400 otherwise). */
    private Long[] priceBounds() {
        long[] points = HistoryGenerator.PRICE_POINTS;
        int roll = rnd.nextInt(100);
        Long min = null;
        Long max = null;
        if (roll < 40) {
            // no bounds
        } else if (roll < 55) {
            min = anyPrice();
        } else if (roll < 70) {
            max = anyPrice();
        } else if (roll < 85) {
            long a = anyPrice();
            long b = anyPrice();
            min = Math.min(a, b);
            max = Math.max(a, b);
        } else if (roll < 93) {
            min = points[rnd.nextInt(points.length)];
            max = min;
        } else if (roll < 97) {
            min = 123_457L; // no product has this price (random prices avoid it only by chance, rarely)
            max = 123_457L;
        } else {
            min = HistoryGenerator.MAX_RANDOM_PRICE + 1;
            max = min + rnd.nextInt(1_000);
        }
        return new Long[]{min, max};
    }

    private long anyPrice() {
        long[] points = HistoryGenerator.PRICE_POINTS;
        return rnd.nextBoolean() ? points[rnd.nextInt(points.length)]
                : rnd.nextLong(0, HistoryGenerator.MAX_RANDOM_PRICE + 1);
    }

    private Boolean inStock() {
        int roll = rnd.nextInt(100);
        return roll < 40 ? null : roll < 70 ? Boolean.TRUE : Boolean.FALSE;
    }
}
