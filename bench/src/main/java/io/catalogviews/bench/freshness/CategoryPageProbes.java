package io.catalogviews.bench.freshness;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.query.Workloads;
import io.catalogviews.bench.results.ViewFreshness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Freshness of the category pages (which the service feeds through its repartition topic): once the broker has
 * acknowledged a price change, a probe polls the page a shopper would see it on — the product's first category,
 * {@code sort=price}, its brand and the new price as both bounds, so that the page is small and selects it —
 * until the product is listed there at its new price (at that version or a later one). Polls are {@link #POLL}
 * apart, or {@value #RELATIVE_RESOLUTION_PERCENT} % of the time already waited when that is longer: the figure's
 * resolution is 20 ms or 5 %, whichever is larger. A fixed 10 ms interval made the probes a load of their own that
 * grew with the latency they measure — 128 pollers asking up to 12 800 pages/s of a service on the same two cores —
 * so a service that fell behind once stayed behind (freshness p50 of 18–24 s at 1 000 changes/s with or without
 * the read mix, at a materialization capacity of 3 000 changes/s); the growing interval keeps a probe at about
 * 20 polls per factor e of latency. A later price change of the same product makes the probe {@code superseded}
 * (the product moved again; it is left out of the percentiles). Where the one price fills more than a page of the
 * brand, the probe follows the page's cursor to where the product's id would be listed.
 */
final class CategoryPageProbes {

    static final Duration POLL = Duration.ofMillis(20);
    static final int RELATIVE_RESOLUTION_PERCENT = 5;
    private static final long GIVE_UP_NANOS = Duration.ofSeconds(10).toNanos();
    static final String VIEW = "category page (GET /v1/products?category=c&brand=b&minPrice=p&maxPrice=p&sort=price)";

    private final ThreadLocal<HttpConnection> connections;
    private final ExecutorService probes = Executors.newFixedThreadPool(128, r -> {
        Thread t = new Thread(r, "freshness-category-probe");
        t.setDaemon(true);
        return t;
    });
    /** The last version of each product whose price was changed: a probe of an older one is superseded. */
    private final Map<String, Long> latestPriceChange = new ConcurrentHashMap<>();
    private final Latencies latencies = new Latencies();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong superseded = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    CategoryPageProbes(String serviceUrl) {
        this.connections = ThreadLocal.withInitial(() -> HttpConnection.to(serviceUrl, 15_000));
    }

    /** Tells that {@code productId}'s price changed at {@code version} (probed or not); called before sending. */
    void priceChanged(String productId, long version) {
        latestPriceChange.merge(productId, version, Math::max);
    }

    /** Probes a price change acknowledged at {@code ackAt} (nanoTime). */
    void probe(String productId, String category, String brand, long priceCents, long version, long ackAt) {
        started.incrementAndGet();
        String path = "/v1/products?category=" + Workloads.encode(category) + "&brand=" + Workloads.encode(brand)
                + "&minPrice=" + priceCents + "&maxPrice=" + priceCents + "&sort=price&limit=200";
        byte[] firstPage = HttpConnection.get(path);
        probes.execute(() -> poll(path, firstPage, productId, priceCents, version, ackAt));
    }

    private void poll(String path, byte[] firstPage, String productId, long priceCents, long version, long ackAt) {
        HttpConnection c = connections.get();
        try {
            while (true) {
                Poll poll = readPages(c, path, firstPage, productId, priceCents, version);
                if (poll.status() != 200) {
                    errors.incrementAndGet();
                    return;
                }
                long at = poll.at();
                if (poll.listed()) {
                    latencies.add(at - ackAt);
                    return;
                }
                if (latestPriceChange.getOrDefault(productId, version) > version) {
                    superseded.incrementAndGet();
                    return;
                }
                if (at - ackAt > GIVE_UP_NANOS) {
                    timeouts.incrementAndGet();
                    return;
                }
                Thread.sleep(pollIntervalMillis(at - ackAt));
            }
        } catch (IOException | RuntimeException e) {
            c.close();
            errors.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One poll: the answer's status, whether the product was listed as changed, and when the answer was read. */
    private record Poll(int status, boolean listed, long at) {
    }

    /** Reads the query's pages, from {@code firstPage}, up to the one where the product would be listed. */
    private static Poll readPages(HttpConnection c, String path, byte[] firstPage, String productId, long priceCents,
                                  long version) throws IOException {
        byte[] head = firstPage;
        while (true) {
            HttpConnection.Response r = c.exchange(head, null);
            long at = System.nanoTime();
            if (r.status() != 200) {
                return new Poll(r.status(), false, at);
            }
            JsonNode page = JsonCheck.MAPPER.readTree(r.body());
            if (listed(page, productId, priceCents, version)) {
                return new Poll(200, true, at);
            }
            String cursor = laterPage(page, productId);
            if (cursor == null) {
                return new Poll(200, false, at);
            }
            head = HttpConnection.get(path + "&cursor=" + Workloads.encode(cursor));
        }
    }

    /** The wait before the next poll of a probe that has waited {@code waitedNanos} so far. */
    static long pollIntervalMillis(long waitedNanos) {
        return Math.max(POLL.toMillis(), waitedNanos / 1_000_000 * RELATIVE_RESOLUTION_PERCENT / 100);
    }

    static boolean listed(JsonNode page, String productId, long priceCents, long version) {
        for (JsonNode item : page.path("items")) {
            if (item.path("id").asText().equals(productId)) {
                return item.path("priceCents").asLong() == priceCents && item.path("version").asLong() >= version;
            }
        }
        return false;
    }

    /**
     * The cursor of the next page when {@code productId} can only be listed there: the page's items all have the one
     * price of the query, so they come by id, and a popular price (999) can fill more than a page of one brand in a
     * category. Null when the product is on this page (whatever its version) or cannot be on a later one.
     */
    static String laterPage(JsonNode page, String productId) {
        JsonNode items = page.path("items");
        JsonNode next = page.path("nextCursor");
        if (!next.isTextual() || items.isEmpty()) {
            return null;
        }
        for (JsonNode item : items) {
            if (item.path("id").asText().equals(productId)) {
                return null;
            }
        }
        return items.get(items.size() - 1).path("id").asText().compareTo(productId) < 0 ? next.asText() : null;
    }

    /** The {@code n} slowest probes so far, slowest first. */
    List<Latencies.Slow> slowest(int n) {
        return latencies.slowest(n);
    }

    /** Waits up to {@code wait} for the probes under way; the figures of every probe. */
    ViewFreshness finish(Duration wait) {
        return latencies.finish(probes, wait, VIEW, started.get(), timeouts.get(), superseded.get(), errors.get(), (double) POLL.toMillis());
    }
}
