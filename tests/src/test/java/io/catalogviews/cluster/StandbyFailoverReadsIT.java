package io.catalogviews.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.it.HttpTestClient;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.model.CatalogCluster;
import io.catalogviews.model.CatalogModel;
import io.catalogviews.model.HistoryGenerator;
import io.catalogviews.model.ModelProduct;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.query.KeyPartitioner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances (JVMs from the jar, 4 partitions, 1 standby replica). Once every standby has caught up, the owner
 * of some product partitions is killed with {@code kill -9}; until the group notices and the survivor's standbys
 * become active, the survivor must answer batch ids from its standbys, marked {@code X-Stale: true} with
 * {@code X-Lag-Records}, or refuse with 503 and Retry-After; category pages and facets, which read every product
 * partition's active copy, are answered fresh or refused, never stale. Never a wrong answer (each answer is compared
 * with the one captured before the kill, which equals the reference model).
 */
@Tag("system")
@Timeout(300)
class StandbyFailoverReadsIT {

    private static final int PARTITIONS = 4;
    private static final int PRODUCTS = 80;
    private static final int EVENTS = 300;

    /** One request the survivor is asked again and again, and the answer it gave before the kill. */
    private record Probe(String route, String method, String path, String body, String expected) {
        HttpTestClient.Answer ask(ServiceProcess instance) {
            return method.equals("GET") ? instance.http().get(path) : instance.http().postJson(path, body);
        }
    }

    /** What the survivor answered to each probe, by route. */
    private static final class Tally {
        final Map<String, int[]> byRoute = new TreeMap<>(); // stale, fresh, refused, wrong
        final List<String> wrong = new ArrayList<>();
        final Set<String> staleLags = new HashSet<>();
        long firstStaleMs = -1;

        int[] of(String route) {
            return byRoute.computeIfAbsent(route, r -> new int[4]);
        }

        @Override
        public String toString() {
            return byRoute.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()[0] + " stale, "
                    + e.getValue()[1] + " fresh, " + e.getValue()[2] + " refused (503), " + e.getValue()[3]
                    + " wrong").collect(Collectors.joining("; "));
        }
    }

    @Test
    void shouldAnswerFromTheStandbyOrRefuseWhenTheOwnerOfSomePartitionsIsKilled() {
        try (CatalogCluster cluster = CatalogCluster.start("standby-failover-it", 2, PARTITIONS, 1)) {
            CatalogModel model = cluster.publish(HistoryGenerator.generate(20261202L, PRODUCTS, EVENTS));
            System.out.println("converged: " + cluster.awaitConverged());
            ServiceProcess victim = cluster.instances().get(1);
            ServiceProcess survivor = cluster.instances().get(0);
            awaitStandbysCaughtUp(survivor, victim);

            JsonNode clusterView = survivor.http().get("/v1/cluster").json();
            Set<Integer> victimProductPartitions = activeOf(clusterView, victim, StoreNames.PRODUCTS);
            // Every category has products in every partition, the victim's included.
            List<String> categories = model.categories().stream().map(CatalogModel.CategoryCount::category)
                    .limit(6).toList();
            List<String> victimIds = model.rememberedIds().stream()
                    .filter(id -> victimProductPartitions.contains(KeyPartitioner.partitionOf(id, PARTITIONS)))
                    .sorted().toList();
            assertThat(categories).as("categories to read").isNotEmpty();
            assertThat(victimIds).as("ids owned by the victim").isNotEmpty();

            List<Probe> probes = capture(survivor, model, categories, new ArrayList<>(model.rememberedIds()));
            System.out.printf("victim %s owns product partitions %s (%d of %d ids); %d categories read; %d probes%n",
                    victim.hostPort(), victimProductPartitions, victimIds.size(), model.rememberedIds().size(),
                    categories.size(),
                    probes.size());

            long killedAt = System.nanoTime();
            victim.kill();
            Tally tally = new Tally();
            await().alias("the survivor answers every probe from its own active tasks (rebalance done)")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                    .until(() -> round(survivor, probes, tally, killedAt));
            long doneMs = (System.nanoTime() - killedAt) / 1_000_000;

            System.out.printf("after kill -9: %s; first stale answer %d ms after the kill, all answers fresh again "
                    + "after %d ms; lags seen %s%n", tally, tally.firstStaleMs, doneMs, tally.staleLags);
            assertThat(tally.wrong).as("wrong answers").isEmpty();
            assertThat(tally.of("batch")[0]).as("stale answers of batch before the rebalance").isPositive();
            for (String route : List.of("page", "facets", "page fresh=true")) {
                assertThat(tally.of(route)[0]).as("stale answers of " + route + " (never stale)").isZero();
                assertThat(tally.of(route)[2]).as("refusals of " + route + " before the rebalance").isPositive();
            }
        }
    }

    /** One pass over the probes; true when every answer came fresh from the survivor's active tasks. */
    private static boolean round(ServiceProcess survivor, List<Probe> probes, Tally tally, long killedAt) {
        boolean allFresh = true;
        for (Probe probe : probes) {
            HttpTestClient.Answer answer = probe.ask(survivor);
            int[] counts = tally.of(probe.route());
            boolean stale = "true".equals(answer.header("X-Stale"));
            if (answer.status() == 503 && answer.header("Retry-After") != null) {
                counts[2]++;
                allFresh = false;
            } else if (answer.status() == 200 && answer.body().equals(probe.expected())) {
                if (stale) {
                    counts[0]++;
                    tally.staleLags.add(answer.header("X-Lag-Records"));
                    if (tally.firstStaleMs < 0) {
                        tally.firstStaleMs = (System.nanoTime() - killedAt) / 1_000_000;
                    }
                    allFresh = false;
                } else {
                    counts[1]++;
                }
            } else {
                counts[3]++;
                tally.wrong.add(probe.method() + " " + probe.path() + " -> " + answer.status() + " stale=" + stale
                        + " " + abbreviate(answer.body()));
                allFresh = false;
            }
        }
        return allFresh;
    }

    /** The probes and the survivor's answers before the kill, checked against the model. */
    private static List<Probe> capture(ServiceProcess survivor, CatalogModel model, List<String> categories,
                                       List<String> ids) {
        List<Probe> probes = new ArrayList<>();
        for (String category : categories) {
            CatalogModel.Filter filter = CatalogModel.Filter.category(category);
            String page = "/v1/products?category=" + category + "&limit=200";
            HttpTestClient.Answer pageAnswer = freshAnswer(survivor, "GET", page, null);
            assertThat(pageAnswer.json().get("items")).extracting(item -> item.get("id").asText())
                    .as("page of " + category).containsExactlyElementsOf(model.listing(filter, CatalogModel.Sort.PRICE));
            probes.add(new Probe("page", "GET", page, null, pageAnswer.body()));
            String facets = "/v1/facets?category=" + category;
            HttpTestClient.Answer facetsAnswer = freshAnswer(survivor, "GET", facets, null);
            assertThat(CatalogCluster.facetsText(facetsAnswer.json())).as("facets of " + category)
                    .isEqualTo(CatalogCluster.facetsText(model.facets(filter)));
            probes.add(new Probe("facets", "GET", facets, null, facetsAnswer.body()));
        }
        String freshPage = "/v1/products?category=" + categories.get(0) + "&limit=200&fresh=true";
        probes.add(new Probe("page fresh=true", "GET", freshPage, null, probes.get(0).expected()));
        String body = ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
        HttpTestClient.Answer batch = freshAnswer(survivor, "POST", "/v1/products/batch", body);
        Map<String, Long> served = new LinkedHashMap<>();
        batch.json().get("products").forEach(p -> served.put(p.get("id").asText(), p.get("version").asLong()));
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String id : ids) {
            model.product(id).map(ModelProduct::version).ifPresent(v -> expected.put(id, v));
        }
        assertThat(served).as("batch of every remembered id").containsExactlyEntriesOf(expected);
        probes.add(new Probe("batch", "POST", "/v1/products/batch", body, batch.body()));
        return probes;
    }

    private static HttpTestClient.Answer freshAnswer(ServiceProcess instance, String method, String path,
                                                     String body) {
        HttpTestClient.Answer answer = method.equals("GET") ? instance.http().get(path)
                : instance.http().postJson(path, body);
        assertThat(answer.status()).as(method + " " + path + ": " + answer.body()).isEqualTo(200);
        assertThat(answer.header("X-Stale")).as("X-Stale before the kill").isNull();
        return answer;
    }

    /** Waits until the survivor holds a standby of each of the victim's partitions, at most one record behind. */
    private static void awaitStandbysCaughtUp(ServiceProcess survivor, ServiceProcess victim) {
        await().alias("the survivor's standbys of the victim's partitions are caught up")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> {
                    JsonNode view = survivor.http().get("/v1/cluster").json();
                    for (String store : List.of(StoreNames.PRODUCTS)) {
                        Set<Integer> standby = standbyOf(view, survivor, store);
                        if (!standby.containsAll(activeOf(view, victim, store)) || standby.isEmpty()) {
                            return false;
                        }
                        for (int p : standby) {
                            JsonNode lag = view.path("lag").path(store).path(Integer.toString(p));
                            if (!lag.isNumber() || lag.asLong() > 1) {
                                return false;
                            }
                        }
                    }
                    return true;
                });
    }

    private static Set<Integer> activeOf(JsonNode view, ServiceProcess instance, String store) {
        return partitionsOf(view, instance, "active", store);
    }

    private static Set<Integer> standbyOf(JsonNode view, ServiceProcess instance, String store) {
        return partitionsOf(view, instance, "standby", store);
    }

    private static Set<Integer> partitionsOf(JsonNode view, ServiceProcess instance, String kind, String store) {
        Set<Integer> out = new HashSet<>();
        for (JsonNode member : view.get("instances")) {
            if (member.path("url").asText().equals(instance.url())) {
                member.path(kind).path(store).forEach(p -> out.add(p.asInt()));
            }
        }
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }
}
