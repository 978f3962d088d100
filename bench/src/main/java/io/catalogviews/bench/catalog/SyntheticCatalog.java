package io.catalogviews.bench.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The harness's own deterministic synthetic catalog: departments, categories and brands skewed the way real
 * catalogs are (a few big departments, categories and brands, a long tail). Product {@code i} is a pure function
 * of {@code (seed, i)}, so the reference model can regenerate the fields it does not keep in memory.
 *
 * <p>Every product is in its department and in one category of that department; one in five also in a second
 * category of the same department. Brands are drawn per department with a Zipf-like skew.
 */
public final class SyntheticCatalog {

    /** Epoch millis of 2026-11-01T00:00:00Z: product {@code updatedAt} values lie in the year before it. */
    public static final long BASE_TIME_MS = 1_793_491_200_000L;

    static final String[][] DEPARTMENTS = {
            {"electronics", "phones", "laptops", "headphones", "tvs", "cameras", "tablets", "smartwatches",
                    "speakers", "monitors", "keyboards", "printers", "drones"},
            {"home", "kitchen", "furniture", "lighting", "bedding", "vacuum-cleaners", "cookware", "rugs",
                    "storage"},
            {"fashion", "sneakers", "jackets", "t-shirts", "jeans", "bags", "dresses", "watches"},
            {"sports", "running-shoes", "bikes", "fitness", "camping", "swimming", "yoga"},
            {"toys", "board-games", "building-sets", "puzzles", "dolls", "rc-cars"},
            {"garden", "grills", "lawn-mowers", "planters", "garden-tools"},
            {"books", "novels", "cookbooks", "comics", "travel-guides"},
    };
    static final String[][] BRANDS = {
            {"acme", "zeta", "orbit", "lumen", "vertex", "pulse", "nordic sound", "kairo", "helix", "quanta",
                    "sonora", "pixelworks", "ampere", "voltaic", "tessera", "ion & co"},
            {"casa", "nordhem", "brightline", "dustaway", "oakwood", "acme", "hearth", "linenhaus", "potmaster"},
            {"urbanix", "denimco", "maison lune", "northwind", "stride", "atelier 9", "threadline", "kobalt"},
            {"stride", "peakline", "velo", "aqua", "trailhead", "zeta", "flexcore"},
            {"brickworks", "playfair", "puzzlers", "tinytown", "zoomkart"},
            {"greenthumb", "embercraft", "mowmaster", "terra"},
            {"paperleaf", "inkwell", "folio", "northwind"},
    };
    private static final double[] DEPARTMENT_BASE_PRICE = {15_000, 8_000, 4_000, 6_000, 2_500, 9_000, 1_800};
    private static final String[] ADJECTIVES = {"Pro", "Max", "Mini", "Plus", "Air", "Ultra", "Lite", "Neo", "Go",
            "One", "Prime", "Flex", "Edge", "Core", "Nova"};
    private static final String[] COLORS = {"black", "white", "silver", "blue", "red", "green", "grey", "gold"};
    private static final String[] MATERIALS = {"aluminium", "steel", "cotton", "wood", "plastic", "glass"};

    private final long seed;

    public SyntheticCatalog(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    /** Id of the i-th product: {@code p-0000042}. */
    public static String productId(int i) {
        return "p-" + zeroPadded(i, 7);
    }

    private static String zeroPadded(int i, int width) {
        String digits = Integer.toString(i);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    /** Every category name, departments included, in a fixed order (the model's category numbers). */
    public static List<String> allCategories() {
        List<String> all = new ArrayList<>();
        for (String[] d : DEPARTMENTS) {
            all.addAll(List.of(d));
        }
        return all;
    }

    /** Every brand name, distinct, in a fixed order (the model's brand numbers). */
    public static List<String> allBrands() {
        List<String> all = new ArrayList<>();
        for (String[] d : BRANDS) {
            for (String b : d) {
                if (!all.contains(b)) {
                    all.add(b);
                }
            }
        }
        return all;
    }

    /** The i-th product at version 1, as its upsert event carries it. */
    public GeneratedProduct product(int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        int department = skewed(r, DEPARTMENTS.length);
        String[] categoriesOfDepartment = DEPARTMENTS[department];
        int categoryCount = categoriesOfDepartment.length - 1;
        String category = categoriesOfDepartment[1 + skewed(r, categoryCount)];
        List<String> categories = new ArrayList<>(List.of(category, categoriesOfDepartment[0]));
        if (r.nextInt(5) == 0) {
            String second = categoriesOfDepartment[1 + r.nextInt(categoryCount)];
            if (!categories.contains(second)) {
                categories.add(second);
            }
        }
        String[] brands = BRANDS[department];
        String brand = brands[skewed(r, brands.length)];
        long price = priceCents(r, DEPARTMENT_BASE_PRICE[department]);
        String adjective = ADJECTIVES[r.nextInt(ADJECTIVES.length)];
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("color", COLORS[r.nextInt(COLORS.length)]);
        if (r.nextBoolean()) {
            attributes.put("material", MATERIALS[r.nextInt(MATERIALS.length)]);
        }
        if (r.nextBoolean()) {
            attributes.put("warrantyYears", Integer.toString(1 + r.nextInt(3)));
        }
        Float rating = r.nextInt(10) == 0 ? null : Math.round((1.0 + r.nextDouble() * 4.0) * 10) / 10f;
        int stock = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(200);
        long updatedAt = BASE_TIME_MS - 1000L * r.nextInt(365 * 24 * 3600);
        String name = capitalize(brand) + " " + capitalize(category.replace('-', ' ')) + " " + adjective + " "
                + (1 + r.nextInt(20));
        return new GeneratedProduct(productId(i), "SKU-" + zeroPadded(i, 8), name, brand,
                List.copyOf(categories), price, "EUR", stock, rating, attributes, updatedAt);
    }

    /** Index in 0..n-1, smaller indexes more likely (roughly Zipf-like). */
    static int skewed(SplittableRandom r, int n) {
        double u = r.nextDouble();
        return Math.min(n - 1, (int) (n * u * u));
    }

    /** A log-normal price around the department's base, ending in 99 cents. */
    static long priceCents(SplittableRandom r, double base) {
        long cents = Math.round(base * Math.exp(r.nextGaussian() * 0.8));
        return Math.max(99, cents / 100 * 100 + 99);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** One generated product (version 1). */
    public record GeneratedProduct(String id, String sku, String name, String brand, List<String> categories,
                                   long priceCents, String currency, int stock, Float rating,
                                   Map<String, String> attributes, long updatedAtMs) {
    }
}
