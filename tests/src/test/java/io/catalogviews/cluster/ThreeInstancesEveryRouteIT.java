package io.catalogviews.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.model.CatalogCluster;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.model.HistoryGenerator;
import io.catalogviews.model.ModelProduct;
import io.catalogviews.model.ProductJsonCheck;
import io.catalogviews.model.QueryGenerator;
import io.catalogviews.views.query.KeyPartitioner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances of the executable jar (three JVMs, one broker, one application id, one standby replica), a
 * seeded catalog history published, then every contract route asked of every instance: each answer must equal the
 * reference model ({@link CatalogModel}), and the three instances' answers to one request must be byte-identical
 * (status, body, ETag, Content-Type). Listings are walked through their cursors to the end, each page asked of all
 * three instances. A 503 with Retry-After (a refusal the contract allows while partitions move) is retried and
 * counted, never taken for an answer. The requests per route per instance and the mismatches are printed.
 */
@Tag("system")
@Timeout(600)
class ThreeInstancesEveryRouteIT {

    private static final int INSTANCES = 3;
    private static final int PARTITIONS = 6;
    private static final int STANDBY_REPLICAS = 1;
    private static final long SEED = 20261201L;
    private static final int PRODUCTS = 240;
    private static final int EVENTS = 1_000;
    private static final int RANDOM_QUERIES = 40;
    private static final int RANDOM_FACET_FILTERS = 30;
    private static final int RANDOM_BATCHES = 25;
    private static final List<String> UNKNOWN_CATEGORIES = List.of("phon", "tablets");
    private static final List<String> INVENTED_IDS = List.of("never-seen", "p-999999", "x.none", "a~b~c", "Z:0:0",
            "q-0-no", "-", "P");

    private static CatalogCluster cluster;
    private static List<ServiceProcess> instances;
    private static CatalogModel model;
    private static List<HistoryEvent> history;
    /** Owner (host:port) of each product partition, per /v1/cluster once the cluster is stable. */
    private static Map<Integer, String> productOwners;
    private static final Tally TALLY = new Tally();

    @BeforeAll
    static void startThreeInstancesAndLoadTheCatalog() {
        long start = System.nanoTime();
        cluster = CatalogCluster.start("three-it", INSTANCES, PARTITIONS, STANDBY_REPLICAS);
        instances = cluster.instances();
        long started = System.nanoTime();
        history = HistoryGenerator.generate(SEED, PRODUCTS, EVENTS);
        model = cluster.publish(history);
        long published = System.nanoTime();
        String convergence = cluster.awaitConverged();
        AtomicReference<Map<Integer, String>> owners = new AtomicReference<>();
        await().alias("every instance is caught up and sees the same members and partition ownership")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> {
                    List<String> problems = new ArrayList<>();
                    owners.set(checkClusterViews(problems, false));
                    assertThat(problems).isEmpty();
                });
        productOwners = owners.get();
        System.out.printf("ThreeInstancesEveryRouteIT: %d instances up in %d ms; %d events over %d product ids "
                        + "published in %d ms (%d applied, %d stale, %d dead-lettered; %d live, %d remembered); "
                        + "converged after %d ms more (%s)%n", INSTANCES, ms(start, started), history.size(), PRODUCTS,
                ms(started, published), model.count(CatalogModel.Outcome.APPLIED),
                model.count(CatalogModel.Outcome.STALE), model.count(CatalogModel.Outcome.DEAD_LETTERED),
                model.products().size(), model.rememberedIds().size(), ms(published, System.nanoTime()), convergence);
    }

    @AfterAll
    static void printCountsAndStop() {
        if (instances != null) {
            System.out.print(TALLY.table(instances));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    // ---------------------------------------------------------------- GET /v1/products/{id}

    @Test
    void shouldAnswerEveryProductAsTheModelFromEveryInstanceWhenPresentDeletedOrUnknown() {
        Map<String, Long> deletedAt = deletedByEvent();
        Set<String> unknown = unknownIds();
        List<String> ids = new ArrayList<>(new TreeSet<>(model.rememberedIds()));
        ids.addAll(unknown);
        String route = "GET /v1/products/{id}";
        long live = 0;

        for (String id : ids) {
            String path = "/v1/products/" + id;
            List<HttpTestClient.Answer> answers = askAll(route, c -> c.get(path));
            if (!sameEverywhere(route, path, answers, "X-Served-By")) {
                continue;
            }
            HttpTestClient.Answer answer = answers.get(0);
            ModelProduct expected = model.product(id).orElse(null);
            if (expected == null) {
                expectError(route, path, answer, 404, "not_found");
                continue;
            }
            live++;
            String diff = answer.status() == 200 ? ProductJsonCheck.difference(expected, answer.body())
                    : "expected 200 but was " + answer.status() + " " + answer.body();
            TALLY.check(route, diff == null, () -> path + ": " + diff);
            String etag = "\"" + expected.version() + "\"";
            TALLY.check(route, etag.equals(answer.header("ETag")),
                    () -> path + ": ETag " + answer.header("ETag") + ", expected " + etag);
            String owner = productOwners.get(KeyPartitioner.partitionOf(id, PARTITIONS));
            TALLY.check(route, Objects.equals(owner, answer.header("X-Served-By")),
                    () -> path + ": X-Served-By " + answer.header("X-Served-By") + ", but /v1/cluster names "
                            + owner + " the active owner of partition " + KeyPartitioner.partitionOf(id, PARTITIONS));

            // If-None-Match with the current ETag: 304 from every instance.
            String conditional = route + " If-None-Match";
            List<HttpTestClient.Answer> notModified = askAll(conditional, c -> c.get(path, "If-None-Match", etag));
            if (sameEverywhere(conditional, path, notModified)) {
                TALLY.check(conditional, notModified.get(0).status() == 304,
                        () -> path + " If-None-Match " + etag + ": expected 304 but was " + notModified.get(0).status()
                                + " " + notModified.get(0).body());
            }
            // minVersion reached: the product at once; one beyond, without waiting: 409 with the current version.
            String versioned = route + "?minVersion";
            String reachedPath = path + "?minVersion=" + expected.version() + "&waitMs=1000";
            List<HttpTestClient.Answer> reached = askAll(versioned, c -> c.get(reachedPath));
            if (sameEverywhere(versioned, reachedPath, reached)) {
                TALLY.check(versioned, reached.get(0).status() == 200 && reached.get(0).body().equals(answer.body()),
                        () -> reachedPath + ": expected the product (200) but was " + reached.get(0).status() + " "
                                + reached.get(0).body());
            }
            String beyondPath = path + "?minVersion=" + (expected.version() + 1) + "&waitMs=0";
            List<HttpTestClient.Answer> beyond = askAll(versioned, c -> c.get(beyondPath));
            if (sameEverywhere(versioned, beyondPath, beyond)
                    && expectError(versioned, beyondPath, beyond.get(0), 409, "version_not_reached")) {
                JsonNode current = beyond.get(0).json().path("error").path("currentVersion");
                TALLY.check(versioned, current.isNumber() && current.asLong() == expected.version(),
                        () -> beyondPath + ": error.currentVersion " + current + ", expected " + expected.version());
            }
        }
        // Deleted by a ProductDeleted event at version v: minVersion=v answers 404 at once (no wait).
        String versioned = route + "?minVersion";
        for (Map.Entry<String, Long> deleted : deletedAt.entrySet()) {
            String path = "/v1/products/" + deleted.getKey() + "?minVersion=" + deleted.getValue() + "&waitMs=1000";
            List<HttpTestClient.Answer> answers = askAll(versioned, c -> c.get(path));
            if (sameEverywhere(versioned, path, answers)) {
                expectError(versioned, path, answers.get(0), 404, "not_found");
            }
        }
        // Never held: any minVersion without a wait is 409 with currentVersion null.
        for (String id : unknown) {
            String path = "/v1/products/" + id + "?minVersion=1&waitMs=0";
            List<HttpTestClient.Answer> answers = askAll(versioned, c -> c.get(path));
            if (sameEverywhere(versioned, path, answers)
                    && expectError(versioned, path, answers.get(0), 409, "version_not_reached")) {
                JsonNode current = answers.get(0).json().path("error").path("currentVersion");
                TALLY.check(versioned, current.isNull(),
                        () -> path + ": error.currentVersion " + current + ", expected null");
            }
        }
        System.out.printf("ThreeInstancesEveryRouteIT: GET /v1/products/{id} for %d ids (%d live, %d deleted by an "
                        + "event, %d tombstoned, %d never held) on each of %d instances%n", ids.size(), live,
                deletedAt.size(), model.rememberedIds().size() - live - deletedAt.size(), unknown.size(), INSTANCES);

        assertThat(live).isGreaterThan(PRODUCTS / 3);
        assertThat(TALLY.problems(route, route + " If-None-Match", route + "?minVersion"))
                .as("GET /v1/products/{id} vs the model and across instances").isEmpty();
    }

    // ---------------------------------------------------------------- POST /v1/products/batch

    @Test
    void shouldAnswerEveryBatchAsTheModelFromEveryInstanceWhenIdsMixLiveDeletedUnknownAndRepeated() {
        String route = "POST /v1/products/batch";
        List<String> pool = new ArrayList<>(new TreeSet<>(model.rememberedIds()));
        pool.addAll(unknownIds());
        SplittableRandom rnd = new SplittableRandom(SEED * 7 + 5);
        List<List<String>> batches = new ArrayList<>();
        batches.add(List.of(pool.get(0)));
        batches.add(List.of(INVENTED_IDS.get(0)));
        for (int i = 0; i < RANDOM_BATCHES; i++) {
            int size = 1 + rnd.nextInt(i % 5 == 0 ? 300 : 40);
            List<String> batch = new ArrayList<>();
            for (int j = 0; j < size; j++) {
                // A repeated id in about one batch position of 15.
                batch.add(!batch.isEmpty() && rnd.nextInt(15) == 0 ? batch.get(rnd.nextInt(batch.size()))
                        : pool.get(rnd.nextInt(pool.size())));
            }
            batches.add(batch);
        }
        // Exactly the limit: every id the history named, then invented ones, with repeats, 1000 in all.
        List<String> full = new ArrayList<>(pool);
        for (int i = 0; full.size() < 1_000; i++) {
            full.add(i % 3 == 0 ? pool.get(i % pool.size()) : "filler-" + i);
        }
        batches.add(full);
        long products = 0;
        long missing = 0;

        for (List<String> batch : batches) {
            String body = batchBody(batch);
            String label = "batch of " + batch.size() + " ids starting " + batch.get(0);
            List<HttpTestClient.Answer> answers = askAll(route, c -> c.postJson("/v1/products/batch", body));
            if (!sameEverywhere(route, label, answers)) {
                continue;
            }
            HttpTestClient.Answer answer = answers.get(0);
            if (answer.status() != 200) {
                TALLY.check(route, false, () -> label + ": expected 200 but was " + answer.status() + " "
                        + answer.body());
                continue;
            }
            List<String> distinct = new ArrayList<>(new LinkedHashSet<>(batch));
            List<String> expectedFound = distinct.stream().filter(id -> model.product(id).isPresent()).toList();
            List<String> expectedMissing = distinct.stream().filter(id -> model.product(id).isEmpty()).toList();
            JsonNode json = answer.json();
            List<String> found = new ArrayList<>();
            json.path("products").forEach(p -> found.add(p.path("id").asText()));
            List<String> missed = new ArrayList<>();
            json.path("missing").forEach(m -> missed.add(m.asText()));
            TALLY.check(route, found.equals(expectedFound),
                    () -> label + ": products " + found + ", expected " + expectedFound);
            TALLY.check(route, missed.equals(expectedMissing),
                    () -> label + ": missing " + missed + ", expected " + expectedMissing);
            for (JsonNode p : json.path("products")) {
                ModelProduct expected = model.product(p.path("id").asText()).orElse(null);
                String diff = expected == null ? "not live in the model: " + p
                        : ProductJsonCheck.difference(expected, p.toString());
                TALLY.check(route, diff == null, () -> label + ": " + diff);
            }
            products += found.size();
            missing += missed.size();
        }
        // One id over the limit: 413 too_large from every instance.
        List<String> over = new ArrayList<>(full);
        over.add("one-too-many");
        String overBody = batchBody(over);
        List<HttpTestClient.Answer> tooLarge = askAll(route, c -> c.postJson("/v1/products/batch", overBody));
        if (sameEverywhere(route, "batch of 1001 ids", tooLarge)) {
            expectError(route, "batch of 1001 ids", tooLarge.get(0), 413, "too_large");
        }
        System.out.printf("ThreeInstancesEveryRouteIT: %d batches (1..1000 ids, and one of 1001) on each of %d "
                + "instances, %d products and %d missing ids compared per instance%n", batches.size() + 1, INSTANCES,
                products, missing);

        assertThat(TALLY.problems(route)).as("POST /v1/products/batch vs the model and across instances").isEmpty();
    }

    // ---------------------------------------------------------------- GET /v1/products (listings)

    @Test
    void shouldWalkEveryListingToTheEndAsTheModelOnEveryInstanceWhenFiltersAndSortsVary() {
        String route = "GET /v1/products";
        List<String> scopes = new ArrayList<>();
        scopes.add(null);
        scopes.addAll(HistoryGenerator.CATEGORIES);
        scopes.addAll(UNKNOWN_CATEGORIES);
        record Planned(String label, CatalogModel.Filter filter, CatalogModel.Sort sort, Integer limit,
                       boolean percentSpaces) {
        }
        List<Planned> walks = new ArrayList<>();
        int n = 0;
        for (String scope : scopes) {
            CatalogModel.Filter filter = CatalogModel.Filter.category(scope);
            // The defaults: sort=price, limit=20.
            walks.add(new Planned("defaults", filter, CatalogModel.Sort.PRICE, null, false));
            for (CatalogModel.Sort sort : CatalogModel.Sort.values()) {
                walks.add(new Planned("every sort", filter, sort, n++ % 2 == 0 ? 50 : 13, false));
            }
        }
        QueryGenerator generator = new QueryGenerator(SEED * 31 + 1);
        for (int i = 0; i < RANDOM_QUERIES; i++) {
            QueryGenerator.Query q = generator.next();
            walks.add(new Planned("random", q.filter(), q.sort(), Math.max(q.limit(), 3), i % 2 == 1));
        }
        long pages = 0;
        long items = 0;
        long nonEmpty = 0;
        Set<String> servedWholeCatalog = new TreeSet<>();

        for (Planned w : walks) {
            List<String> params = CatalogCluster.filterParams(w.filter());
            if (w.limit() != null) {
                params.add("sort=" + URLEncoder.encode(w.sort().wireName(), StandardCharsets.UTF_8));
                params.add("limit=" + w.limit());
            }
            int limit = w.limit() == null ? 20 : w.limit();
            String base = "/v1/products" + CatalogCluster.query(params);
            if (w.percentSpaces()) {
                base = base.replace("+", "%20"); // '+' and "%20" both mean a space; a literal '+' is "%2B"
            }
            String label = w.label() + " " + w.filter() + " sort=" + w.sort().wireName() + " limit=" + limit;
            List<JsonNode> walked = new ArrayList<>();
            String cursor = null;
            String problem = null;
            int walkPages = 0;
            while (problem == null) {
                String path = cursor == null ? base
                        : base + (base.contains("?") ? "&" : "?") + "cursor="
                        + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
                List<HttpTestClient.Answer> answers = askAll(route, c -> c.get(path));
                walkPages++;
                if (!sameEverywhere(route, label + " page " + walkPages, answers)) {
                    problem = "(the instances answered differently)";
                    break;
                }
                HttpTestClient.Answer answer = answers.get(0);
                if (answer.status() != 200) {
                    problem = "page " + walkPages + ": GET " + path + " answered " + answer.status() + " "
                            + answer.body();
                    break;
                }
                if (w.filter().category() == null) {
                    answers.forEach(a -> servedWholeCatalog.addAll(servedBy(a)));
                }
                JsonNode body = answer.json();
                JsonNode page = body.get("items");
                JsonNode next = body.get("nextCursor");
                if (page == null || !page.isArray() || next == null) {
                    problem = "page " + walkPages + ": not a listing answer: " + answer.body();
                    break;
                }
                page.forEach(walked::add);
                if (page.size() > limit || (!next.isNull() && page.size() != limit)) {
                    problem = "page " + walkPages + " holds " + page.size() + " items with limit " + limit
                            + " and nextCursor " + next;
                } else if (next.isNull()) {
                    break;
                } else if (walkPages > PRODUCTS + 2) {
                    problem = "the cursor walk does not end after " + walkPages + " pages";
                }
                cursor = next.asText();
            }
            pages += walkPages;
            items += walked.size();
            nonEmpty += walked.isEmpty() ? 0 : 1;
            String mismatch = problem != null ? problem : listingMismatch(w.filter(), w.sort(), walked, walkPages);
            TALLY.check(route, mismatch == null, () -> label + ": " + mismatch);
        }
        // A cursor continues only its own query: another query's cursor is a 400 naming it, on every instance.
        String firstPage = "/v1/products?sort=price&limit=1";
        String cursor = askAll(route, c -> c.get(firstPage)).get(0).json().path("nextCursor").asText();
        String foreign = "/v1/products?sort=-price&limit=1&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
        List<HttpTestClient.Answer> refused = askAll(route, c -> c.get(foreign));
        if (sameEverywhere(route, foreign, refused) && expectError(route, foreign, refused.get(0), 400, "bad_request")) {
            TALLY.check(route, "cursor".equals(refused.get(0).json().path("error").path("parameter").asText()),
                    () -> foreign + ": the 400 does not name 'cursor': " + refused.get(0).body());
        }
        System.out.printf("ThreeInstancesEveryRouteIT: %d listing walks (%d scopes x (defaults + %d sorts), %d random "
                        + "filters), %d pages asked of each of %d instances, %d items compared per instance%n",
                walks.size(), scopes.size(), CatalogModel.Sort.values().length, RANDOM_QUERIES, pages, INSTANCES,
                items);

        assertThat(TALLY.problems(route)).as("GET /v1/products walks vs the model and across instances").isEmpty();
        assertThat(nonEmpty).isGreaterThan(walks.size() / 2);
        assertThat(servedWholeCatalog).as("instances whose stores answered whole-catalog pages")
                .containsExactlyInAnyOrderElementsOf(hostPorts());
    }

    /** Null when the walked items are the model's listing, in the model's JSON, else what differs. */
    private static String listingMismatch(CatalogModel.Filter filter, CatalogModel.Sort sort, List<JsonNode> walked,
                                          int pages) {
        List<String> expected = model.listing(filter, sort);
        List<String> ids = walked.stream().map(item -> item.path("id").asText()).toList();
        if (!ids.equals(expected)) {
            int at = 0;
            while (at < ids.size() && at < expected.size() && ids.get(at).equals(expected.get(at))) {
                at++;
            }
            return "the walk (" + pages + " pages) gave " + ids.size() + " ids, the model " + expected.size()
                    + "; first difference at #" + at + ": expected "
                    + (at < expected.size() ? model.product(expected.get(at)).orElseThrow() : "(end)")
                    + " but was " + (at < ids.size() ? walked.get(at) : "(end)");
        }
        for (JsonNode item : walked) {
            String diff = ProductJsonCheck.difference(model.product(item.path("id").asText()).orElseThrow(),
                    item.toString());
            if (diff != null) {
                return diff;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- GET /v1/facets

    @Test
    void shouldReturnTheModelsFacetsFromEveryInstanceWhenFiltersVaryOrAreAbsent() {
        String route = "GET /v1/facets";
        Map<CatalogModel.Filter, Integer> filters = new LinkedHashMap<>();
        filters.put(CatalogModel.Filter.category(null), null); // brandLimit left to its default, 100
        HistoryGenerator.CATEGORIES.forEach(c -> filters.put(CatalogModel.Filter.category(c), 100));
        UNKNOWN_CATEGORIES.forEach(c -> filters.put(CatalogModel.Filter.category(c), 100));
        QueryGenerator generator = new QueryGenerator(SEED * 17 + 3);
        while (filters.size() < 1 + HistoryGenerator.CATEGORIES.size() + UNKNOWN_CATEGORIES.size()
                + RANDOM_FACET_FILTERS) {
            filters.putIfAbsent(generator.nextFilter(), generator.nextBrandLimit());
        }

        for (Map.Entry<CatalogModel.Filter, Integer> f : filters.entrySet()) {
            List<String> params = CatalogCluster.filterParams(f.getKey());
            if (f.getValue() != null) {
                params.add("brandLimit=" + f.getValue());
            }
            String path = "/v1/facets" + CatalogCluster.query(params);
            List<HttpTestClient.Answer> answers = askAll(route, c -> c.get(path));
            if (!sameEverywhere(route, path, answers)) {
                continue;
            }
            HttpTestClient.Answer answer = answers.get(0);
            String expected = CatalogCluster.facetsText(model.facets(f.getKey(),
                    f.getValue() == null ? 100 : f.getValue()));
            String actual = answer.status() == 200 ? CatalogCluster.facetsText(answer.json())
                    : answer.status() + " " + answer.body();
            TALLY.check(route, expected.equals(actual),
                    () -> "GET " + path + "\n   expected " + expected + "\n   but was  " + actual);
        }
        System.out.printf("ThreeInstancesEveryRouteIT: %d facet queries on each of %d instances%n", filters.size(),
                INSTANCES);

        assertThat(TALLY.problems(route)).as("GET /v1/facets vs the model and across instances").isEmpty();
    }

    // ---------------------------------------------------------------- GET /v1/categories

    @Test
    void shouldReturnTheModelsCategoriesFromEveryInstanceWhenAsked() {
        String route = "GET /v1/categories";
        List<HttpTestClient.Answer> answers = askAll(route, c -> c.get("/v1/categories"));
        if (sameEverywhere(route, "/v1/categories", answers)) {
            HttpTestClient.Answer answer = answers.get(0);
            List<String> expected = CatalogCluster.modelCategories(model);
            List<String> actual = answer.status() == 200 ? CatalogCluster.categoriesText(answer.json())
                    : List.of(answer.status() + " " + answer.body());
            TALLY.check(route, actual.equals(expected), () -> "expected " + expected + " but was " + actual);
        }

        assertThat(TALLY.problems(route)).as("GET /v1/categories vs the model and across instances").isEmpty();
    }

    // ---------------------------------------------------------------- GET /v1/cluster

    @Test
    void shouldShowTheSameMembersAndPartitionOwnershipFromEveryInstanceWhenTheClusterIsStable() {
        String route = "GET /v1/cluster";
        List<String> problems = new ArrayList<>();
        Map<Integer, String> owners = checkClusterViews(problems, true);
        problems.forEach(p -> TALLY.check(route, false, () -> p));
        TALLY.check(route, owners.equals(productOwners), () -> "the product partitions moved during the test: "
                + productOwners + " at the start, " + owners + " now");

        assertThat(TALLY.problems(route)).as("GET /v1/cluster on every instance").isEmpty();
    }

    /**
     * Asks every instance for /v1/cluster and adds to {@code problems} what breaks consistency: each names itself
     * as {@code self} and is caught up; all three list the same three members with the same states and the same
     * active and standby partitions per store; every partition of every store has exactly one active owner and
     * {@value #STANDBY_REPLICAS} standby on another instance. Returns the product-view owner of each partition.
     */
    private static Map<Integer, String> checkClusterViews(List<String> problems, boolean counted) {
        String route = "GET /v1/cluster";
        Map<String, String> canonical = new LinkedHashMap<>();
        Map<Integer, String> productViewOwners = new TreeMap<>();
        JsonNode reference = null;
        for (ServiceProcess instance : instances) {
            HttpTestClient.Answer answer = counted ? ask(route, instance, c -> c.get("/v1/cluster"))
                    : instance.http().get("/v1/cluster");
            if (answer.status() != 200) {
                problems.add(instance.hostPort() + ": /v1/cluster answered " + answer.status() + " " + answer.body());
                continue;
            }
            JsonNode view = answer.json();
            if (!instance.hostPort().equals(view.path("self").asText())) {
                problems.add(instance.hostPort() + ": self is " + view.path("self"));
            }
            if (!view.path("caughtUp").asBoolean(false)) {
                problems.add(instance.hostPort() + ": caughtUp is " + view.path("caughtUp") + ", lag "
                        + view.path("lag"));
            }
            canonical.put(instance.hostPort(), members(view));
            reference = reference == null ? view : reference;
        }
        if (new TreeSet<>(canonical.values()).size() > 1) {
            problems.add("the instances see different members or ownership:\n   "
                    + canonical.entrySet().stream().map(e -> e.getKey() + " sees " + e.getValue())
                    .collect(Collectors.joining("\n   ")));
        }
        if (reference == null) {
            return productViewOwners;
        }
        Set<String> urls = new TreeSet<>();
        Map<String, Map<Integer, List<String>>> active = new TreeMap<>();
        Map<String, Map<Integer, List<String>>> standby = new TreeMap<>();
        for (JsonNode member : reference.path("instances")) {
            String url = member.path("url").asText();
            urls.add(url);
            String hostPort = url.replaceFirst("^http://", "");
            collect(member.path("active"), hostPort, active);
            collect(member.path("standby"), hostPort, standby);
        }
        Set<String> expectedUrls = instances.stream().map(ServiceProcess::url).collect(Collectors.toCollection(TreeSet::new));
        if (!urls.equals(expectedUrls)) {
            problems.add("members " + urls + ", expected " + expectedUrls);
        }
        if (!active.containsKey("product-view")) {
            problems.add("no active product-view partitions in " + reference);
        }
        for (Map.Entry<String, Map<Integer, List<String>>> store : active.entrySet()) {
            for (int p = 0; p < PARTITIONS; p++) {
                List<String> owners = store.getValue().getOrDefault(p, List.of());
                List<String> standbys = standby.getOrDefault(store.getKey(), Map.of()).getOrDefault(p, List.of());
                if (owners.size() != 1) {
                    problems.add(store.getKey() + " partition " + p + " has active owners " + owners);
                } else if (standbys.size() != STANDBY_REPLICAS || standbys.contains(owners.get(0))) {
                    problems.add(store.getKey() + " partition " + p + " (active on " + owners + ") has standbys "
                            + standbys);
                }
            }
            Set<Integer> extra = new TreeSet<>(store.getValue().keySet());
            extra.removeAll(IntStream.range(0, PARTITIONS).boxed().toList());
            if (!extra.isEmpty()) {
                problems.add(store.getKey() + " has partitions beyond " + PARTITIONS + ": " + extra);
            }
        }
        active.getOrDefault("product-view", Map.of()).forEach((p, owners) -> productViewOwners.put(p, owners.get(0)));
        return productViewOwners;
    }

    /** Members as a canonical text: url, state, active and standby partitions per store, sorted. */
    private static String members(JsonNode view) {
        Map<String, String> byUrl = new TreeMap<>();
        for (JsonNode member : view.path("instances")) {
            byUrl.put(member.path("url").asText(), member.path("state").asText() + " active "
                    + partitions(member.path("active")) + " standby " + partitions(member.path("standby")));
        }
        return byUrl.toString();
    }

    private static Map<String, Set<Integer>> partitions(JsonNode byStore) {
        Map<String, Set<Integer>> out = new TreeMap<>();
        byStore.fields().forEachRemaining(e -> {
            Set<Integer> ps = new TreeSet<>();
            e.getValue().forEach(p -> ps.add(p.asInt()));
            out.put(e.getKey(), ps);
        });
        return out;
    }

    private static void collect(JsonNode byStore, String hostPort, Map<String, Map<Integer, List<String>>> into) {
        byStore.fields().forEachRemaining(e -> e.getValue().forEach(p -> into
                .computeIfAbsent(e.getKey(), k -> new TreeMap<>())
                .computeIfAbsent(p.asInt(), k -> new ArrayList<>()).add(hostPort)));
    }

    // ---------------------------------------------------------------- asking every instance

    /** The same request to every instance, in order; refusals (503 + Retry-After) are retried. */
    private static List<HttpTestClient.Answer> askAll(String route, Function<HttpTestClient, HttpTestClient.Answer> request) {
        List<HttpTestClient.Answer> answers = new ArrayList<>(instances.size());
        for (ServiceProcess instance : instances) {
            answers.add(ask(route, instance, request));
        }
        return answers;
    }

    private static HttpTestClient.Answer ask(String route, ServiceProcess instance,
                                             Function<HttpTestClient, HttpTestClient.Answer> request) {
        HttpTestClient.Answer first = request.apply(instance.http());
        TALLY.request(route, instance, first);
        if (!refused(first)) {
            return first;
        }
        AtomicReference<HttpTestClient.Answer> last = new AtomicReference<>(first);
        await().alias(route + " on " + instance.hostPort() + " answers something other than 503 + Retry-After")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    HttpTestClient.Answer again = request.apply(instance.http());
                    TALLY.request(route, instance, again);
                    last.set(again);
                    return !refused(again);
                });
        return last.get();
    }

    private static boolean refused(HttpTestClient.Answer answer) {
        return answer.status() == 503 && answer.header("Retry-After") != null;
    }

    /**
     * True when every instance gave the same status, body, ETag and Content-Type (and the extra headers named);
     * otherwise records the difference and returns false.
     */
    private static boolean sameEverywhere(String route, String request, List<HttpTestClient.Answer> answers,
                                          String... alsoHeaders) {
        List<String> headers = new ArrayList<>(List.of("ETag", "Content-Type"));
        headers.addAll(List.of(alsoHeaders));
        HttpTestClient.Answer first = answers.get(0);
        for (int i = 1; i < answers.size(); i++) {
            HttpTestClient.Answer other = answers.get(i);
            List<String> differences = new ArrayList<>();
            if (other.status() != first.status() || !other.body().equals(first.body())) {
                differences.add("status and body " + first.status() + " " + first.body() + "\n   vs " + other.status()
                        + " " + other.body());
            }
            for (String header : headers) {
                if (!Objects.equals(first.header(header), other.header(header))) {
                    differences.add(header + " " + first.header(header) + " vs " + other.header(header));
                }
            }
            if (!differences.isEmpty()) {
                String from = instances.get(0).hostPort() + " and " + instances.get(i).hostPort();
                TALLY.check(route, false, () -> request + ": " + from + " differ: " + String.join("; ", differences));
                return false;
            }
        }
        return true;
    }

    /** Checks an error answer's status and JSON code; true when both are as expected. */
    private static boolean expectError(String route, String request, HttpTestClient.Answer answer, int status,
                                       String code) {
        String actualCode = answer.body().isEmpty() ? null : answer.json().path("error").path("code").asText(null);
        boolean ok = answer.status() == status && code.equals(actualCode);
        TALLY.check(route, ok, () -> request + ": expected " + status + " " + code + " but was " + answer.status()
                + " " + answer.body());
        return ok;
    }

    private static List<String> servedBy(HttpTestClient.Answer answer) {
        String header = answer.header("X-Served-By");
        return header == null ? List.of() : List.of(header.split(","));
    }

    // ---------------------------------------------------------------- ids

    /** Ids whose last applied event is a ProductDeleted, with its version (tombstoned ones excluded). */
    private static Map<String, Long> deletedByEvent() {
        CatalogModel replay = new CatalogModel();
        Map<String, Long> deleted = new HashMap<>();
        for (HistoryEvent e : history) {
            CatalogModel.Outcome outcome = replay.apply(e);
            if (e instanceof HistoryEvent.Delete d && outcome == CatalogModel.Outcome.APPLIED) {
                deleted.put(d.productId(), d.version());
            } else if (outcome == CatalogModel.Outcome.APPLIED) {
                deleted.remove(e.productId());
            }
        }
        return new TreeMap<>(deleted);
    }

    /** Ids the service never held at any version: named only by dead-lettered events or tombstones, or invented. */
    private static Set<String> unknownIds() {
        Set<String> unknown = new TreeSet<>();
        history.forEach(e -> unknown.add(e.productId()));
        unknown.removeAll(model.rememberedIds());
        unknown.addAll(INVENTED_IDS);
        return unknown;
    }

    private static String batchBody(List<String> ids) {
        return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
    }

    private static List<String> hostPorts() {
        return instances.stream().map(ServiceProcess::hostPort).toList();
    }

    private static long ms(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    // ---------------------------------------------------------------- counts

    /** Requests per route per instance, refusals retried, and the problems found per route. */
    private static final class Tally {
        private final Map<String, Map<String, Long>> requests = new LinkedHashMap<>();
        private final Map<String, Long> refusals = new LinkedHashMap<>();
        private final Map<String, List<String>> problems = new LinkedHashMap<>();

        synchronized void request(String route, ServiceProcess instance, HttpTestClient.Answer answer) {
            requests.computeIfAbsent(route, r -> new LinkedHashMap<>()).merge(instance.hostPort(), 1L, Long::sum);
            problems.computeIfAbsent(route, r -> new ArrayList<>());
            if (refused(answer)) {
                refusals.merge(route, 1L, Long::sum);
            }
        }

        synchronized void check(String route, boolean ok, Supplier<String> problem) {
            List<String> list = problems.computeIfAbsent(route, r -> new ArrayList<>());
            if (!ok) {
                list.add(problem.get());
            }
        }

        synchronized List<String> problems(String... routes) {
            List<String> out = new ArrayList<>();
            for (String route : routes) {
                out.addAll(problems.getOrDefault(route, List.of()));
            }
            return out;
        }

        synchronized String table(List<ServiceProcess> instances) {
            StringBuilder b = new StringBuilder("ThreeInstancesEveryRouteIT: requests per route per instance\n");
            b.append(String.format("  %-40s", "route"));
            instances.forEach(i -> b.append(String.format(" %16s", i.hostPort())));
            b.append(String.format(" %9s %10s%n", "503+retry", "mismatches"));
            long total = 0;
            long mismatches = 0;
            for (Map.Entry<String, Map<String, Long>> route : requests.entrySet()) {
                b.append(String.format("  %-40s", route.getKey()));
                for (ServiceProcess i : instances) {
                    long n = route.getValue().getOrDefault(i.hostPort(), 0L);
                    total += n;
                    b.append(String.format(" %16d", n));
                }
                long wrong = problems.getOrDefault(route.getKey(), List.of()).size();
                mismatches += wrong;
                b.append(String.format(" %9d %10d%n", refusals.getOrDefault(route.getKey(), 0L), wrong));
            }
            b.append(String.format("  total: %d requests, %d refused with 503 + Retry-After (retried), %d mismatches%n",
                    total, refusals.values().stream().mapToLong(Long::longValue).sum(), mismatches));
            return b.toString();
        }
    }
}
