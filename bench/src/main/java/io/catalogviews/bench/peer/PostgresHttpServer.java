package io.catalogviews.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.http.JsonCheck;
import io.javalin.Javalin;
import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * PostgreSQL behind the same HTTP server as the service (Javalin 7 / Jetty 12, same routes), writing the stored
 * JSON documents as they are: the "Kafka → PostgreSQL sink → SQL" alternative with the HTTP cost paid on both
 * sides (DESIGN.md, "Benchmark fairness"). Only what the benchmark asks is implemented: get by id, batch,
 * listing pages with category, one brand, price bounds, sort price or -updatedAt and a keyset cursor, and the
 * facets of a category. A fixed pool of JDBC connections serves Jetty's threads.
 */
public final class PostgresHttpServer {

    private final BlockingQueue<PgSession> pool;

    private PostgresHttpServer(String jdbcUrl, int poolSize) throws SQLException {
        pool = new ArrayBlockingQueue<>(poolSize);
        for (int i = 0; i < poolSize; i++) {
            pool.add(new PgSession(jdbcUrl));
        }
    }

    public static Javalin start(int port, String jdbcUrl, int poolSize) throws SQLException {
        PostgresHttpServer s = new PostgresHttpServer(jdbcUrl, poolSize);
        return Javalin.create(cfg -> {
            cfg.jetty.port = port;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/health/ready", ctx -> ctx.result("{}"));
            cfg.routes.get("/v1/products/{id}", s::get);
            cfg.routes.post("/v1/products/batch", s::batch);
            cfg.routes.get("/v1/products", s::page);
            cfg.routes.get("/v1/facets", s::facets);
        }).start();
    }

    private interface Work<T> {
        T run(PgSession s) throws SQLException;
    }

    private <T> T with(Work<T> work) throws Exception {
        PgSession s = pool.take();
        try {
            return work.run(s);
        } finally {
            pool.add(s);
        }
    }

    private void get(Context ctx) throws Exception {
        PgSession.Row row = with(s -> s.byId(ctx.pathParam("id")));
        if (row == null) {
            json(ctx, 404, "{\"error\":{\"code\":\"not_found\",\"message\":\"no such product\"}}");
        } else {
            ctx.header("ETag", "\"" + row.version() + "\"");
            json(ctx, 200, row.doc());
        }
    }

    private void batch(Context ctx) throws Exception {
        JsonNode body = JsonCheck.MAPPER.readTree(ctx.bodyAsBytes());
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        body.get("ids").forEach(n -> ids.add(n.asText()));
        List<PgSession.Row> rows = with(s -> s.batch(new ArrayList<>(ids)));
        Map<String, String> docs = new HashMap<>();
        for (PgSession.Row r : rows) {
            docs.put(r.id(), r.doc());
        }
        StringBuilder out = new StringBuilder(rows.size() * 450).append("{\"products\":[");
        StringBuilder missing = new StringBuilder();
        boolean first = true;
        for (String id : ids) {
            String doc = docs.get(id);
            if (doc == null) {
                missing.append(missing.length() == 0 ? "\"" : ",\"").append(id).append('"');
            } else {
                out.append(first ? "" : ",").append(doc);
                first = false;
            }
        }
        out.append("],\"missing\":[").append(missing).append("]}");
        json(ctx, 200, out.toString());
    }

    private void page(Context ctx) throws Exception {
        String category = ctx.queryParam("category");
        String brand = ctx.queryParam("brand");
        Long minPrice = longParam(ctx, "minPrice");
        Long maxPrice = longParam(ctx, "maxPrice");
        boolean byPrice = !"-updatedAt".equals(ctx.queryParam("sort"));
        int limit = ctx.queryParam("limit") == null ? 20 : Integer.parseInt(ctx.queryParam("limit"));
        String cursor = ctx.queryParam("cursor");
        Long afterValue = null;
        String afterId = null;
        if (cursor != null) {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", 2);
            afterValue = Long.parseLong(parts[0]);
            afterId = parts[1];
        }
        Long after = afterValue;
        String afterKey = afterId;
        List<PgSession.Row> rows = with(s -> s.page(category, brand, minPrice, maxPrice, byPrice, limit, after,
                afterKey));
        int n = Math.min(limit, rows.size());
        StringBuilder out = new StringBuilder(n * 450 + 64).append("{\"items\":[");
        for (int k = 0; k < n; k++) {
            out.append(k == 0 ? "" : ",").append(rows.get(k).doc());
        }
        out.append("],\"nextCursor\":");
        if (rows.size() > limit) {
            PgSession.Row last = rows.get(n - 1);
            String key = (byPrice ? last.priceCents() : last.updatedAt()) + "|" + last.id();
            out.append('"').append(Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(key.getBytes(StandardCharsets.UTF_8))).append('"');
        } else {
            out.append("null");
        }
        json(ctx, 200, out.append('}').toString());
    }

    private void facets(Context ctx) throws Exception {
        String category = ctx.queryParam("category");
        PgSession.FacetRow row = with(s -> s.facets(category, 100));
        json(ctx, 200, facetsJson(row));
    }

    static String facetsJson(PgSession.FacetRow row) {
        StringBuilder b = new StringBuilder("{\"total\":").append(row.total()).append(",\"inStock\":")
                .append(row.inStock()).append(",\"brands\":[");
        for (int k = 0; k < row.brands().size(); k++) {
            Map.Entry<String, Long> e = row.brands().get(k);
            b.append(k == 0 ? "" : ",").append("{\"value\":\"")
                    .append(e.getKey().replace("\\", "\\\\").replace("\"", "\\\"")).append("\",\"count\":")
                    .append(e.getValue()).append('}');
        }
        b.append("],\"price\":");
        if (row.min() == null) {
            b.append("null");
        } else {
            b.append("{\"min\":").append(row.min()).append(",\"max\":").append(row.max()).append('}');
        }
        return b.append('}').toString();
    }

    private static Long longParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        return v == null ? null : Long.parseLong(v);
    }

    private static void json(Context ctx, int status, String body) {
        ctx.status(status).contentType("application/json").result(body.getBytes(StandardCharsets.UTF_8));
    }
}
