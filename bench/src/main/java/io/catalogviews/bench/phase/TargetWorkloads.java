package io.catalogviews.bench.phase;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.load.HttpTarget;
import io.catalogviews.bench.load.Target;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import io.catalogviews.bench.query.Workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload of each query class for each target: built once per target and data version ({@link Workloads}
 * instance), because a deep page's cursor is found by walking the target's own cursors, which is slow; and the
 * ceiling's constant answers of a class's size.
 */
public final class TargetWorkloads {

    /** Workloads compare by identity: one per data version. */
    private record Key(Workloads workloads, String target, QueryClass queryClass) {
    }

    private final Map<Key, Query.Workload> cache = new HashMap<>();

    /** The workload of class {@code c} for {@code target}, from the expected answers of {@code workloads}. */
    public Query.Workload of(Workloads workloads, Target target, QueryClass c) {
        return cache.computeIfAbsent(new Key(workloads, target.name(), c), k -> workloads.http(c,
                target instanceof HttpTarget h ? cursorsOf(h) : (first, offset) -> "unused"));
    }

    /** Constant answers of {@code size} bytes, asked the way the class asks (GET, or POST with a 100-id body). */
    public static Query.Workload ceiling(QueryClass c, int size) {
        String target = "/ceiling/" + size;
        Query q;
        if (c == QueryClass.BATCH_100) {
            StringBuilder body = new StringBuilder("{\"ids\":[");
            for (int j = 0; j < Workloads.BATCH_SIZE; j++) {
                body.append(j == 0 ? "\"" : ",\"").append(SyntheticCatalog.productId(j)).append('"');
            }
            q = Query.post(0, target, body.append("]}").toString().getBytes(StandardCharsets.UTF_8),
                    new Spec.Constant(size));
        } else {
            q = Query.get(0, target, new Spec.Constant(size));
        }
        return Query.Workload.pool(c, List.of(q));
    }

    /** Walks a target's cursors (200 items a page) to the item before a deep page; returns the last cursor. */
    private static Workloads.DeepCursors cursorsOf(HttpTarget target) {
        return (first, offset) -> {
            String base = Workloads.listingTarget(first).replace("&limit=" + first.limit(), "");
            String cursor = null;
            int consumed = 0;
            try (HttpConnection c = HttpConnection.to(target.baseUrl(), 60_000)) {
                while (consumed < offset) {
                    int limit = Math.min(200, offset - consumed);
                    String t = base + "&limit=" + limit + (cursor == null ? "" : "&cursor=" + Workloads.encode(cursor));
                    HttpConnection.Response r = c.exchange(HttpConnection.get(t), null);
                    if (r.status() != 200) {
                        throw new IllegalStateException(target.name() + " answered " + r.status() + " to " + t);
                    }
                    JsonNode page = JsonCheck.MAPPER.readTree(r.body());
                    consumed += page.get("items").size();
                    if (page.get("nextCursor").isNull()) {
                        throw new IllegalStateException(target.name() + ": the cursor walk ended after " + consumed
                                + " items, expected more than " + offset);
                    }
                    cursor = page.get("nextCursor").asText();
                }
            } catch (IOException e) {
                throw new IllegalStateException("walking " + target.name() + " to offset " + offset + " failed", e);
            }
            return cursor;
        };
    }
}
