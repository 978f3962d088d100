package io.catalogviews.bench.query;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Builds the query pools of every class from the reference model, with the expected answers. The pools are a
 * function of the seed and the model, so every target (the service, PostgreSQL) gets the same queries. Deep
 * pages need a cursor of the target itself: {@link DeepCursors} walks there once.
 */
public final class Workloads {

    public static final int PAGE = 60;
    public static final int DEEP_PAGE_NUMBER = 1000;
    public static final int CATEGORY_POOL = 200;
    public static final int BATCH_POOL = 500;
    public static final int BATCH_SIZE = 100;
    public static final int CATALOG_POOL = 50;
    public static final int DEEP_CATEGORIES = 3;

    /** How a target turns "after the first {@code offset} items of this query" into its cursor. */
    public interface DeepCursors {
        String cursor(Spec.Page first, int offset);
    }

    /** One deep page as prepared: the page number reached and its query. */
    public record Deep(int pageNumber, Spec.Page page, String category) {
    }

    private final CatalogModel model;
    private final long seed;
    private final List<Spec.Page> categoryPrice = new ArrayList<>();
    private final List<Spec.Page> categoryUpdated = new ArrayList<>();
    private final List<Spec.Page> categoryPriceDesc = new ArrayList<>();
    private final List<Spec.Page> pageOne = new ArrayList<>();
    private final List<Deep> deep = new ArrayList<>();
    private final List<Spec.Facets> facets = new ArrayList<>();
    private final List<Spec.Page> catalogPages = new ArrayList<>();
    private final List<int[]> batches = new ArrayList<>();

    /** Computes every expected answer from the model as it is now (call again after the data changed). */
    public Workloads(CatalogModel model, long seed) {
        this.model = model;
        this.seed = seed;
        buildCategoryPages();
        buildDeepPages();
        buildFacets();
        buildCatalogPages();
        buildBatches();
    }

    public List<Deep> deepPages() {
        return deep;
    }

    private void buildCategoryPages() {
        List<String> names = model.categoryNames();
        long[] cumulative = new long[names.size()];
        long total = 0;
        for (int c = 0; c < names.size(); c++) {
            total += model.members(c).length;
            cumulative[c] = total;
        }
        Map<Long, int[]> byBrandAndPrice = new HashMap<>();
        SplittableRandom r = new SplittableRandom(seed * 7 + 11);
        int attempts = 0;
        while (categoryPrice.size() < CATEGORY_POOL && attempts++ < CATEGORY_POOL * 20) {
            long pick = r.nextLong(total);
            int c = 0;
            while (cumulative[c] <= pick) {
                c++;
            }
            int[] members = model.members(c);
            int brand = model.brandNumber(model.brand(members[r.nextInt(members.length)]));
            long pairKey = (long) c << 16 | brand;
            int[] sorted = byBrandAndPrice.computeIfAbsent(pairKey, k ->
                    model.listing(members, model.filter(brand, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE));
            double q1 = r.nextDouble() * 0.5;
            double q2 = Math.min(1.0, q1 + 0.2 + r.nextDouble() * 0.3);
            long lo = model.price(sorted[(int) (q1 * (sorted.length - 1))]);
            long hi = model.price(sorted[(int) (q2 * (sorted.length - 1))]);
            // Prefer ranges that fill a page; small catalogs accept what there is after many attempts.
            int[] byPrice = model.listing(members, model.filter(brand, lo, hi), CatalogModel.Sort.PRICE);
            if (byPrice.length < PAGE && attempts < CATEGORY_POOL * 10) {
                continue;
            }
            String category = names.get(c);
            String brandName = model.brandName(brand);
            categoryPrice.add(page(category, brandName, lo, hi, CatalogModel.Sort.PRICE, byPrice, 0));
            int[] byUpdated = model.listing(members, model.filter(brand, lo, hi), CatalogModel.Sort.UPDATED_DESC);
            categoryUpdated.add(page(category, brandName, lo, hi, CatalogModel.Sort.UPDATED_DESC, byUpdated, 0));
            int[] byPriceDesc = model.listing(members, model.filter(brand, lo, hi), CatalogModel.Sort.PRICE_DESC);
            categoryPriceDesc.add(page(category, brandName, lo, hi, CatalogModel.Sort.PRICE_DESC, byPriceDesc, 0));
        }
    }

    private void buildDeepPages() {
        List<String> names = model.categoryNames();
        Integer[] bySize = new Integer[names.size()];
        for (int c = 0; c < bySize.length; c++) {
            bySize[c] = c;
        }
        Arrays.sort(bySize, Comparator.comparingInt((Integer c) -> model.members(c).length).reversed()
                .thenComparing(c -> c));
        for (int k = 0; k < Math.min(DEEP_CATEGORIES, bySize.length); k++) {
            int c = bySize[k];
            int[] all = model.listing(model.members(c), model.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE);
            // Page 1000 when the category is big enough, otherwise the deepest full page there is.
            int pageNumber = Math.min(DEEP_PAGE_NUMBER, Math.max(1, all.length / PAGE));
            if (pageNumber < 2) {
                continue;
            }
            String category = names.get(c);
            pageOne.add(page(category, null, null, null, CatalogModel.Sort.PRICE, all, 0));
            deep.add(new Deep(pageNumber,
                    page(category, null, null, null, CatalogModel.Sort.PRICE, all, (pageNumber - 1) * PAGE), category));
        }
    }

    private void buildFacets() {
        List<String> names = model.categoryNames();
        for (int c = 0; c < names.size(); c++) {
            int[] members = model.members(c);
            if (members.length == 0) {
                continue;
            }
            long inStock = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            Map<String, Long> brands = new TreeMap<>();
            for (int i : members) {
                if (model.stock(i) > 0) {
                    inStock++;
                }
                min = Math.min(min, model.price(i));
                max = Math.max(max, model.price(i));
                brands.merge(model.brand(i), 1L, Long::sum);
            }
            StringBuilder b = new StringBuilder("{\"total\":").append(members.length)
                    .append(",\"inStock\":").append(inStock).append(",\"brands\":[");
            List<Map.Entry<String, Long>> sorted = new ArrayList<>(brands.entrySet());
            sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            for (int k = 0; k < Math.min(100, sorted.size()); k++) {
                b.append(k == 0 ? "" : ",").append("{\"value\":");
                appendString(b, sorted.get(k).getKey());
                b.append(",\"count\":").append(sorted.get(k).getValue()).append('}');
            }
            b.append("],\"price\":{\"min\":").append(min).append(",\"max\":").append(max).append("}}");
            facets.add(new Spec.Facets(names.get(c), b.toString()));
        }
    }

    private void buildCatalogPages() {
        int[] all = model.listing(null, model.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE);
        SplittableRandom r = new SplittableRandom(seed * 13 + 5);
        for (int k = 0; k < CATALOG_POOL; k++) {
            long lo = model.price(all[r.nextInt(Math.max(1, all.length - PAGE))]);
            int from = lowerBound(all, lo);
            catalogPages.add(page(null, null, lo, null, CatalogModel.Sort.PRICE,
                    Arrays.copyOfRange(all, from, all.length), 0));
        }
    }

    private int lowerBound(int[] byPrice, long lo) {
        int a = 0;
        int b = byPrice.length;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (model.price(byPrice[m]) < lo) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        return a;
    }

    private void buildBatches() {
        SplittableRandom r = new SplittableRandom(seed * 17 + 3);
        for (int k = 0; k < BATCH_POOL; k++) {
            int[] ids = r.ints(BATCH_SIZE * 2L, 0, model.size()).distinct().limit(BATCH_SIZE).toArray();
            batches.add(ids);
        }
    }

    /** A page spec of the {@code limit} items after {@code offset} of {@code all} (the full matching listing). */
    private static Spec.Page page(String category, String brand, Long lo, Long hi, CatalogModel.Sort sort, int[] all,
                                  int offset) {
        int end = Math.min(all.length, offset + PAGE);
        int[] items = Arrays.copyOfRange(all, Math.min(offset, end), end);
        int after = offset == 0 ? -1 : all[offset - 1];
        return new Spec.Page(category, brand, lo, hi, sort, PAGE, offset, after, items, end < all.length);
    }

    // ------------------------------------------------------------------ HTTP forms

    /** The workload of {@code c} against a target that serves the contract's routes. */
    public Query.Workload http(QueryClass c, DeepCursors cursors) {
        return switch (c) {
            case GET_BY_ID -> Query.Workload.generated(c, model.size(), i ->
                    Query.get(-1, "/v1/products/" + SyntheticCatalog.productId(i), new Spec.GetById(i), model));
            case BATCH_100 -> {
                List<Query> qs = new ArrayList<>();
                for (int k = 0; k < batches.size(); k++) {
                    int[] ids = batches.get(k);
                    StringBuilder body = new StringBuilder("{\"ids\":[");
                    for (int j = 0; j < ids.length; j++) {
                        body.append(j == 0 ? "\"" : ",\"").append(SyntheticCatalog.productId(ids[j])).append('"');
                    }
                    body.append("]}");
                    qs.add(Query.post(k, "/v1/products/batch", body.toString().getBytes(StandardCharsets.UTF_8),
                            new Spec.Batch(ids), model));
                }
                yield Query.Workload.pool(c, qs);
            }
            case CATEGORY_PRICE -> pagePool(c, categoryPrice);
            case CATEGORY_UPDATED -> pagePool(c, categoryUpdated);
            case CATEGORY_PRICE_DESC -> pagePool(c, categoryPriceDesc);
            case PAGE_ONE -> pagePool(c, pageOne);
            case DEEP_PAGE -> {
                List<Query> qs = new ArrayList<>();
                for (int k = 0; k < deep.size(); k++) {
                    Deep d = deep.get(k);
                    String cursor = cursors.cursor(pageOne.get(k), d.page().offset());
                    qs.add(Query.get(k, listingTarget(d.page()) + "&cursor=" + encode(cursor), d.page(), model));
                }
                yield Query.Workload.pool(c, qs);
            }
            case FACETS -> {
                List<Query> qs = new ArrayList<>();
                for (int k = 0; k < facets.size(); k++) {
                    qs.add(Query.get(k, "/v1/facets?category=" + encode(facets.get(k).category()), facets.get(k),
                            model));
                }
                yield Query.Workload.pool(c, qs);
            }
            case CATALOG_PAGE -> pagePool(c, catalogPages);
        };
    }

    /** The page specs of a listing class (for targets that do not speak HTTP). */
    public List<Spec.Page> pages(QueryClass c) {
        return switch (c) {
            case CATEGORY_PRICE -> categoryPrice;
            case CATEGORY_UPDATED -> categoryUpdated;
            case CATEGORY_PRICE_DESC -> categoryPriceDesc;
            case PAGE_ONE -> pageOne;
            case DEEP_PAGE -> deep.stream().map(Deep::page).toList();
            case CATALOG_PAGE -> catalogPages;
            default -> throw new IllegalArgumentException(c + " is not a listing");
        };
    }

    public List<Spec.Facets> facets() {
        return facets;
    }

    public List<int[]> batches() {
        return batches;
    }

    private Query.Workload pagePool(QueryClass c, List<Spec.Page> pages) {
        List<Query> qs = new ArrayList<>();
        for (int k = 0; k < pages.size(); k++) {
            qs.add(Query.get(k, listingTarget(pages.get(k)), pages.get(k), model));
        }
        return Query.Workload.pool(c, qs);
    }

    /** {@code /v1/products?...} of a page, without its cursor. */
    public static String listingTarget(Spec.Page p) {
        StringBuilder t = new StringBuilder("/v1/products?");
        if (p.category() != null) {
            t.append("category=").append(encode(p.category())).append('&');
        }
        if (p.brand() != null) {
            t.append("brand=").append(encode(p.brand())).append('&');
        }
        if (p.minPrice() != null) {
            t.append("minPrice=").append(p.minPrice()).append('&');
        }
        if (p.maxPrice() != null) {
            t.append("maxPrice=").append(p.maxPrice()).append('&');
        }
        return t.append("sort=").append(p.sort().wire).append("&limit=").append(p.limit()).toString();
    }

    public static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static void appendString(StringBuilder b, String s) {
        b.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
}
