package io.catalogviews.cli.demo;

import io.catalogviews.events.Product;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A deterministic synthetic catalog: realistic departments, categories and brands, skewed the way real
 * catalogs are (a few big categories and brands, a long tail). The same seed gives the same products.
 */
public final class SyntheticCatalog {

    /** Department → its categories; every product is in its department and one or two of its categories. */
    private static final Map<String, List<String>> DEPARTMENTS = new LinkedHashMap<>();
    private static final Map<String, List<String>> BRANDS = new LinkedHashMap<>();
    private static final String[] ADJECTIVES = {"Pro", "Max", "Mini", "Plus", "Air", "Ultra", "Lite", "Neo", "Go",
            "One", "Prime", "Flex", "Edge", "Core", "Nova"};
    private static final String[] COLORS = {"black", "white", "silver", "blue", "red", "green", "grey", "gold"};

    static {
        DEPARTMENTS.put("electronics", List.of("phones", "laptops", "tablets", "headphones", "cameras", "tvs",
                "smartwatches", "speakers"));
        DEPARTMENTS.put("home", List.of("kitchen", "furniture", "lighting", "bedding", "vacuum-cleaners"));
        DEPARTMENTS.put("sports", List.of("running-shoes", "bikes", "fitness", "camping", "swimming"));
        DEPARTMENTS.put("fashion", List.of("jackets", "sneakers", "t-shirts", "jeans", "bags"));
        DEPARTMENTS.put("toys", List.of("board-games", "building-sets", "puzzles", "dolls"));
        BRANDS.put("electronics", List.of("acme", "zeta", "orbit", "lumen", "vertex", "pulse", "nordic sound",
                "kairo", "helix", "quanta"));
        BRANDS.put("home", List.of("casa", "nordhem", "brightline", "dustaway", "oakwood", "acme"));
        BRANDS.put("sports", List.of("stride", "peakline", "velo", "aqua", "trailhead", "zeta"));
        BRANDS.put("fashion", List.of("urbanix", "denimco", "stride", "maison lune", "northwind"));
        BRANDS.put("toys", List.of("brickworks", "playfair", "puzzlers", "tinytown"));
    }

    /** The base time of the demo catalog ({@code demo}, {@code publish --synthetic}). */
    public static final Instant DEMO_BASE_TIME = Instant.parse("2026-11-01T00:00:00Z");

    private final long seed;
    private final Instant baseTime;

    public SyntheticCatalog(long seed, Instant baseTime) {
        this.seed = seed;
        this.baseTime = baseTime;
    }

    /** Id of the i-th product: {@code p-0000042}. */
    public static String productId(int i) {
        return String.format(Locale.ROOT, "p-%07d", i);
    }

    /** The upsert event (version 1) that creates the i-th product. */
    public ProductEvent upsert(int i) {
        Product p = product(i);
        return ProductEvent.newBuilder()
                .setEventId("demo-" + seed + "-" + i)
                .setProductId(p.getId())
                .setVersion(1)
                .setOccurredAt(p.getUpdatedAt())
                .setChange(ProductUpserted.newBuilder().setProduct(p).build())
                .build();
    }

    public Product product(int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        List<String> departments = new ArrayList<>(DEPARTMENTS.keySet());
        String department = departments.get(skewed(r, departments.size()));
        List<String> categoriesOfDepartment = DEPARTMENTS.get(department);
        String category = categoriesOfDepartment.get(skewed(r, categoriesOfDepartment.size()));
        List<String> categories = new ArrayList<>(List.of(category, department));
        if (r.nextInt(5) == 0) {
            categories.add(categoriesOfDepartment.get(r.nextInt(categoriesOfDepartment.size())));
        }
        List<String> brands = BRANDS.get(department);
        String brand = brands.get(skewed(r, brands.size()));
        long price = priceCents(r, department);
        String adjective = ADJECTIVES[r.nextInt(ADJECTIVES.length)];
        String color = COLORS[r.nextInt(COLORS.length)];
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("color", color);
        if (r.nextBoolean()) {
            attributes.put("warrantyYears", Integer.toString(1 + r.nextInt(3)));
        }
        Float rating = r.nextInt(10) == 0 ? null : Math.round((1.0 + r.nextDouble() * 4.0) * 10) / 10f;
        return Product.newBuilder()
                .setId(productId(i))
                .setSku(String.format(Locale.ROOT, "SKU-%08d", i))
                .setName(capitalize(brand) + " " + capitalize(category.replace('-', ' ')) + " " + adjective + " "
                        + (1 + r.nextInt(20)))
                .setBrand(brand)
                .setCategories(categories)
                .setPriceCents(price)
                .setCurrency("EUR")
                .setStock(r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(200))
                .setRating(rating)
                .setAttributes(attributes)
                .setUpdatedAt(baseTime.minusSeconds(r.nextInt(365 * 24 * 3600)))
                .build();
    }

    /** Index in 0..n-1, smaller indexes more likely (roughly Zipf-like). */
    private static int skewed(SplittableRandom r, int n) {
        double u = r.nextDouble();
        return Math.min(n - 1, (int) (n * u * u));
    }

    private static long priceCents(SplittableRandom r, String department) {
        double base = switch (department) {
            case "electronics" -> 15_000;
            case "home" -> 8_000;
            case "sports" -> 6_000;
            case "fashion" -> 4_000;
            default -> 2_500;
        };
        long cents = Math.round(base * Math.exp(r.nextGaussian() * 0.8));
        return Math.max(99, cents / 100 * 100 + 99);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
