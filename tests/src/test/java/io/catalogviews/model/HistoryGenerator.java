package io.catalogviews.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded random histories of product events, deterministic per seed: products over a few categories and brands
 * chosen to catch prefix and escaping bugs ({@code phone}/{@code phones}/{@code phone-cases}, brands with spaces,
 * a comma, non-ASCII letters, case variants and prefixes of one another), with upserts of 1–3 categories
 * (sometimes repeated), price changes, stock changes to 0 and back, deletes, tombstones, re-creates at higher
 * versions, stale events (lower and equal versions), patches of unknown and deleted products, ratings null, −0, 0,
 * 5 and arbitrary floats, and products that move between categories and brands. Every event is valid: the
 * outcomes are applied, stale or {@code unknown_product} only.
 */
public final class HistoryGenerator {

    public static final List<String> CATEGORIES = List.of(
            "phone", "phones", "phone-cases", "tv", "tvs", "laptops", "audio", "0-deals");

    public static final List<String> BRANDS = List.of(
            "acme", "Acme", "acme-pro", "zeta", "Big Co", "Smith, Jones & Co", "Ünïcode Labs", "a", "a b",
            "Zeta Zeta");

    /**
     * Rare brands, a quarter of the products: categories then hold more than 16 brands, which the category
     * listing skips past in the facet counters rather than reading them all.
     */
    public static final List<String> TAIL_BRANDS = List.of(
            "tail-01", "tail-02", "tail-03", "tail-04", "tail-05", "tail-06", "tail-07", "tail-08", "tail-09",
            "tail-10", "tail-11", "tail-12", "tail-13", "tail-14");

    /** Prices many products share, so that ties (broken by id) are common. */
    static final long[] PRICE_POINTS = {0, 99, 100, 499, 500, 999, 1_000, 4_999, 5_000, 25_000};

    static final long MAX_RANDOM_PRICE = 100_000;

    private static final String[] ID_PREFIXES = {"p-", "P", "x.", "a~", "Z:", "m_", "q-0", "p-1"};
    private static final String[] CURRENCIES = {"EUR", "EUR", "EUR", "USD", "JPY"};
    private static final String[] ATTRIBUTE_KEYS = {"color", "size", "material", "note", "ünï"};
    private static final String[] ATTRIBUTE_VALUES = {"black", "XL", "", "ümlaut \"quoted\"", "a,b", "tab\tand\\"};
    private static final long BASE_MS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    private final long seed;
    private final SplittableRandom rnd;

    private HistoryGenerator(long seed) {
        this.seed = seed;
        this.rnd = new SplittableRandom(seed);
    }

    /** A history of exactly {@code events} records over (at most) {@code products} product ids. */
    public static List<HistoryEvent> generate(long seed, int products, int events) {
        return new HistoryGenerator(seed).run(products, events);
    }

    /** What the generator believes of a product id: only to make plausible events, never to decide outcomes. */
    private static final class Draft {
        final String id;
        long lastVersion;
        String brand;
        List<String> categories;

        Draft(String id) {
            this.id = id;
        }
    }

    private List<HistoryEvent> run(int productCount, int eventCount) {
        List<Draft> drafts = new ArrayList<>(productCount);
        for (int i = 0; i < productCount; i++) {
            drafts.add(new Draft(ID_PREFIXES[i % ID_PREFIXES.length] + i));
        }
        List<HistoryEvent> out = new ArrayList<>(eventCount);
        while (out.size() < eventCount) {
            Draft d = drafts.get(rnd.nextInt(drafts.size()));
            String eventId = "e-" + seed + "-" + out.size();
            boolean json = rnd.nextBoolean();
            if (d.lastVersion == 0) {
                int roll = rnd.nextInt(100);
                long version = nextVersion(d);
                if (roll < 84) {
                    d.brand = brand();
                    d.categories = categories();
                    out.add(upsert(eventId, d, version, json));
                } else if (roll < 90) {
                    out.add(new HistoryEvent.PriceChange(eventId, d.id, version, occurredAt(), price(), currency(),
                            json)); // unknown product: dead-lettered
                } else if (roll < 94) {
                    out.add(new HistoryEvent.StockChange(eventId, d.id, version, occurredAt(), stock(), json));
                } else if (roll < 98) {
                    out.add(new HistoryEvent.Delete(eventId, d.id, version, occurredAt(), json)); // unknown, remembered
                } else {
                    d.lastVersion = 0; // nothing was sent with a version
                    out.add(new HistoryEvent.Tombstone(d.id));
                }
                continue;
            }
            int roll = rnd.nextInt(100);
            if (roll < 22) {
                if (d.brand == null || rnd.nextInt(100) < 15) {
                    d.brand = brand();
                }
                if (d.categories == null || rnd.nextInt(100) < 25) {
                    d.categories = categories();
                }
                out.add(upsert(eventId, d, nextVersion(d), json));
            } else if (roll < 42) {
                out.add(new HistoryEvent.PriceChange(eventId, d.id, nextVersion(d), occurredAt(), price(),
                        currency(), json));
            } else if (roll < 62) {
                out.add(new HistoryEvent.StockChange(eventId, d.id, nextVersion(d), occurredAt(), stock(), json));
            } else if (roll < 70) {
                out.add(new HistoryEvent.Delete(eventId, d.id, nextVersion(d), occurredAt(), json));
            } else if (roll < 75) {
                out.add(new HistoryEvent.Tombstone(d.id));
            } else if (roll < 88) {
                out.add(stale(eventId, d, json));
            } else {
                // Re-create (or replace) with a new brand and new categories.
                d.brand = brand();
                d.categories = categories();
                out.add(upsert(eventId, d, nextVersion(d), json));
            }
        }
        return List.copyOf(out);
    }

    /** An event at a version ≤ the last one sent for the product (equal in a quarter of cases). */
    private HistoryEvent stale(String eventId, Draft d, boolean json) {
        long version = rnd.nextInt(4) == 0 ? d.lastVersion : rnd.nextLong(1, d.lastVersion + 1);
        return switch (rnd.nextInt(4)) {
            case 0 -> new HistoryEvent.Upsert(eventId, d.id, version, occurredAt(),
                    productData(d.id, brand(), categories(), version), json);
            case 1 -> new HistoryEvent.PriceChange(eventId, d.id, version, occurredAt(), price(), currency(), json);
            case 2 -> new HistoryEvent.StockChange(eventId, d.id, version, occurredAt(), stock(), json);
            default -> new HistoryEvent.Delete(eventId, d.id, version, occurredAt(), json);
        };
    }

    private HistoryEvent upsert(String eventId, Draft d, long version, boolean json) {
        return new HistoryEvent.Upsert(eventId, d.id, version, occurredAt(),
                productData(d.id, d.brand, d.categories, version), json);
    }

    private HistoryEvent.ProductData productData(String id, String brand, List<String> categories, long version) {
        String name = switch (rnd.nextInt(4)) {
            case 0 -> "Café ☕ " + id;
            case 1 -> "Phone \"X\" " + id + " rev " + version;
            default -> "Product " + id + " v" + version;
        };
        return new HistoryEvent.ProductData(id, "SKU-" + id + "-" + version, name, brand, categories, price(),
                currency(), stock(), rating(), attributes(), occurredAt());
    }

    private long nextVersion(Draft d) {
        long gap = rnd.nextInt(10) == 0 ? rnd.nextLong(2, 6) : 1;
        d.lastVersion += gap;
        return d.lastVersion;
    }

    /** 1–3 categories, with a repeated one in a fifth of the cases. */
    private List<String> categories() {
        int n = 1 + rnd.nextInt(3);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(pick(CATEGORIES));
        }
        if (rnd.nextInt(5) == 0) {
            out.add(rnd.nextInt(out.size() + 1), out.get(rnd.nextInt(out.size())));
        }
        return out;
    }

    private String brand() {
        return rnd.nextInt(4) == 0 ? pick(TAIL_BRANDS) : pick(BRANDS);
    }

    private long price() {
        return rnd.nextInt(100) < 55 ? PRICE_POINTS[rnd.nextInt(PRICE_POINTS.length)]
                : rnd.nextLong(0, MAX_RANDOM_PRICE + 1);
    }

    private String currency() {
        return CURRENCIES[rnd.nextInt(CURRENCIES.length)];
    }

    /** 0 in 40% of the cases (out of stock), so that products go out of stock and back. */
    private int stock() {
        int roll = rnd.nextInt(100);
        return roll < 40 ? 0 : roll < 90 ? 1 + rnd.nextInt(50) : 1 + rnd.nextInt(1_000_000);
    }

    private Float rating() {
        int roll = rnd.nextInt(100);
        if (roll < 20) {
            return null;
        }
        if (roll < 26) {
            return -0f;
        }
        if (roll < 34) {
            return 0f;
        }
        if (roll < 44) {
            return 5f;
        }
        if (roll < 70) {
            return rnd.nextInt(51) / 10f; // 0.0 .. 5.0 in steps of 0.1: many ties
        }
        return Math.min(5f, (float) (rnd.nextDouble() * 5)); // arbitrary floats, for the shortest decimal
    }

    private Map<String, String> attributes() {
        Map<String, String> out = new LinkedHashMap<>();
        if (rnd.nextInt(100) < 40) {
            return out;
        }
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            out.put(ATTRIBUTE_KEYS[rnd.nextInt(ATTRIBUTE_KEYS.length)],
                    ATTRIBUTE_VALUES[rnd.nextInt(ATTRIBUTE_VALUES.length)]);
        }
        return out;
    }

    /** On a coarse grid (whole minutes) most of the time, so that -updatedAt has ties; otherwise to the ms. */
    private long occurredAt() {
        long minutes = rnd.nextInt(300) * 60_000L;
        return BASE_MS + minutes + (rnd.nextInt(4) == 0 ? rnd.nextInt(60_000) : 0);
    }

    private <T> T pick(List<T> values) {
        return values.get(rnd.nextInt(values.size()));
    }
}
