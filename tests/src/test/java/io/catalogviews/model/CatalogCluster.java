package io.catalogviews.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceCluster;
import io.catalogviews.it.ServiceProcess;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link ServiceCluster} with a seeded history published to it and its reference model: the setup of the
 * model tests that run several instances. {@link #awaitConverged()} returns once every instance serves the
 * history's final state, so that answers can then be compared with the model exactly.
 */
public final class CatalogCluster implements AutoCloseable {

    private final ServiceCluster cluster;
    private final List<ServiceProcess> instances;
    private CatalogModel model;

    private CatalogCluster(ServiceCluster cluster) {
        this.cluster = cluster;
        this.instances = cluster.instances();
    }

    /**
     * Starts {@code count} instances at once and returns when every one is ready and, seen from every one, each
     * owns active partitions of the product view (so that the data loaded next is spread over all of them).
     */
    public static CatalogCluster start(String name, int count, int partitions, int standbyReplicas) {
        ServiceCluster cluster = ServiceCluster.start(name, count, partitions, standbyReplicas);
        try {
            return new CatalogCluster(cluster.awaitEveryInstanceOwningProducts());
        } catch (RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    /** Publishes the history in order ({@link ServiceCluster#publish}) and builds its model. */
    public CatalogModel publish(List<HistoryEvent> history) {
        cluster.publish(history);
        model = CatalogModel.of(history);
        return model;
    }

    /**
     * Waits until the instances serve the published history's final state: batch reads of every remembered id
     * (live products at their latest versions, the others missing) and the category counts on every instance,
     * then the unfiltered listing of every category and of the whole catalog.
     *
     * @return how long each of these took, for the test output
     */
    public String awaitConverged() {
        long start = System.nanoTime();
        // Cheap first: one batch read per instance per poll, until every instance holds the latest versions.
        for (ServiceProcess instance : instances) {
            await().alias("a batch read of every remembered id on " + instance.hostPort() + " gives the latest "
                            + "versions")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> latestVersionsInBatches(instance));
        }
        long products = System.nanoTime();
        List<String> expectedCategories = modelCategories(model);
        for (ServiceProcess instance : instances) {
            await().alias("GET /v1/categories of " + instance.hostPort() + " equals the model")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                    .until(() -> categoriesText(instance.http().get("/v1/categories").json())
                            .equals(expectedCategories));
        }
        long categories = System.nanoTime();
        List<String> scopes = new ArrayList<>(HistoryGenerator.CATEGORIES);
        scopes.add(null);
        // Every instance reads a listing from the same owners' stores: one instance shows when they converged.
        ServiceProcess instance = instances.get(0);
        for (String scope : scopes) {
            CatalogModel.Filter filter = CatalogModel.Filter.category(scope);
            List<String> expected = model.listing(filter, CatalogModel.Sort.PRICE);
            await().alias("the listing of " + filter + " on " + instance.hostPort() + " holds the model's "
                            + expected.size() + " products")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                    .untilAsserted(() -> assertThat(listingDifference(expected, listed(instance, filter))).isNull());
        }
        long end = System.nanoTime();
        return String.format("products at their latest versions after %d ms, category counts %d ms later, "
                        + "listings %d ms later", (products - start) / 1_000_000, (categories - products) / 1_000_000,
                (end - categories) / 1_000_000);
    }

    /** True when batch reads of every remembered id give exactly the live products at their latest versions. */
    private boolean latestVersionsInBatches(ServiceProcess instance) {
        List<String> ids = new ArrayList<>(model.rememberedIds());
        for (int from = 0; from < ids.size(); from += 1_000) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 1_000));
            String body = chunk.stream().map(id -> "\"" + id + "\"")
                    .collect(Collectors.joining(",", "{\"ids\":[", "]}"));
            HttpTestClient.Answer answer = instance.http().postJson("/v1/products/batch", body);
            if (answer.status() != 200) {
                return false;
            }
            Map<String, Long> served = new HashMap<>();
            answer.json().path("products").forEach(p -> served.put(p.path("id").asText(), p.path("version").asLong()));
            for (String id : chunk) {
                Long expected = model.product(id).map(ModelProduct::version).orElse(null);
                if (!Objects.equals(expected, served.get(id))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Every item of an unfiltered listing, walked in pages of 200. */
    private static List<JsonNode> listed(ServiceProcess instance, CatalogModel.Filter filter) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            List<String> params = filterParams(filter);
            params.add("limit=200");
            if (cursor != null) {
                params.add("cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
            }
            JsonNode page = instance.http().get("/v1/products" + query(params)).json();
            page.get("items").forEach(items::add);
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null);
        return items;
    }

    /** Null when the items are the model's products with these ids, in this order, in their latest JSON. */
    private String listingDifference(List<String> expectedIds, List<JsonNode> items) {
        List<String> ids = items.stream().map(item -> item.path("id").asText()).toList();
        if (!ids.equals(expectedIds)) {
            return "ids " + ids + " are not the model's " + expectedIds;
        }
        for (JsonNode item : items) {
            String diff = ProductJsonCheck.difference(model.product(item.path("id").asText()).orElseThrow(),
                    item.toString());
            if (diff != null) {
                return diff;
            }
        }
        return null;
    }

    public List<ServiceProcess> instances() {
        return instances;
    }

    public CatalogModel model() {
        return model;
    }

    public int partitions() {
        return cluster.partitions();
    }

    public String applicationId() {
        return cluster.applicationId();
    }

    /** Stops every instance cleanly, all at once ({@link ServiceCluster#close}). */
    @Override
    public void close() {
        cluster.close();
    }

    // ---------------------------------------------------------------- request and answer texts

    /** The listing parameters of a filter, form-encoded (brands repeat). */
    public static List<String> filterParams(CatalogModel.Filter f) {
        List<String> params = new ArrayList<>();
        if (f.category() != null) {
            params.add("category=" + URLEncoder.encode(f.category(), StandardCharsets.UTF_8));
        }
        for (String brand : f.brands()) {
            params.add("brand=" + URLEncoder.encode(brand, StandardCharsets.UTF_8));
        }
        if (f.minPrice() != null) {
            params.add("minPrice=" + f.minPrice());
        }
        if (f.maxPrice() != null) {
            params.add("maxPrice=" + f.maxPrice());
        }
        if (f.inStock() != null) {
            params.add("inStock=" + f.inStock());
        }
        return params;
    }

    public static String query(List<String> params) {
        return params.isEmpty() ? "" : "?" + String.join("&", params);
    }

    /** The model's facets in the text {@link #facetsText(JsonNode)} gives for a served answer. */
    public static String facetsText(CatalogModel.Facets f) {
        StringBuilder b = new StringBuilder().append(f.total()).append(" total, ").append(f.inStock())
                .append(" in stock, brands [");
        for (CatalogModel.BrandCount brand : f.brands()) {
            b.append(brand.value()).append('=').append(brand.count()).append("; ");
        }
        b.append("], price ").append(f.minPrice() == null ? "null" : f.minPrice() + ".." + f.maxPrice());
        return b.toString();
    }

    public static String facetsText(JsonNode json) {
        StringBuilder b = new StringBuilder().append(json.path("total").asLong(-1)).append(" total, ")
                .append(json.path("inStock").asLong(-1)).append(" in stock, brands [");
        for (JsonNode brand : json.path("brands")) {
            b.append(brand.path("value").asText()).append('=').append(brand.path("count").asLong(-1)).append("; ");
        }
        b.append("], price ");
        JsonNode price = json.get("price");
        b.append(price == null ? "absent" : price.isNull() ? "null"
                : price.path("min").asLong(-1) + ".." + price.path("max").asLong(-1));
        return b.toString();
    }

    /** {@code category=count} per entry of a {@code GET /v1/categories} answer. */
    public static List<String> categoriesText(JsonNode json) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : json.path("categories")) {
            out.add(c.path("category").asText() + "=" + c.path("count").asLong(-1));
        }
        return out;
    }

    public static List<String> modelCategories(CatalogModel model) {
        return model.categories().stream().map(c -> c.category() + "=" + c.count()).toList();
    }
}
