package io.catalogviews.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.JsonCheck;
import io.javalin.Javalin;
import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * PostgreSQL behind the same HTTP server as the service (Javalin 7 / Jetty 12, same routes), writing the stored
 * JSON documents as they are: the "Kafka → PostgreSQL sink → SQL" alternative with the HTTP cost paid on both
 * sides (DESIGN.md, "Benchmark fairness"). Only what the benchmark asks is implemented: get by id, batch,
 * listing pages with category, one brand, price bounds, sort price or -updatedAt and a keyset cursor, and the
 * facets of a category (with or without filters). Jetty's threads share a {@link PgPool}; the harness sizes it and
 * sets the plan-cache modes through {@code POST /admin/tuning?pool=n&plans=class:mode,…} once it has measured them.
 */
public final class PostgresHttpServer {

    private final PgPool pool;

    private PostgresHttpServer(String jdbcUrl, int poolSize) {
        pool = new PgPool(jdbcUrl, poolSize);
    }

    public static Javalin start(int port, String jdbcUrl, int poolSize) {
        PostgresHttpServer s = new PostgresHttpServer(jdbcUrl, poolSize);
        return Javalin.create(cfg -> {
            cfg.jetty.port = port;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/health/ready", ctx -> ctx.result("{}"));
            cfg.routes.get("/v1/products/{id}", s::get);
            cfg.routes.post("/v1/products/batch", s::batch);
            cfg.routes.get("/v1/products", s::page);
            cfg.routes.get("/v1/facets", s::facets);
            cfg.routes.post("/admin/tuning", s::tuning);
        }).start();
    }

    private void get(Context ctx) throws Exception {
        PgSession.Row row = pool.with((s, plans) -> s.byId(ctx.pathParam("id"), plans));
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
        List<PgSession.Row> rows = pool.with((s, plans) -> s.batch(new ArrayList<>(ids), plans));
        json(ctx, 200, PgAnswers.batch(ids, rows));
    }

    private void page(Context ctx) throws Exception {
        String category = ctx.queryParam("category");
        String brand = ctx.queryParam("brand");
        Long minPrice = longParam(ctx, "minPrice");
        Long maxPrice = longParam(ctx, "maxPrice");
        CatalogModel.Sort sort = sortParam(ctx.queryParam("sort"));
        int limit = ctx.queryParam("limit") == null ? 20 : Integer.parseInt(ctx.queryParam("limit"));
        String cursor = ctx.queryParam("cursor");
        Object[] after = cursor == null ? new Object[]{null, null} : PgAnswers.parseCursor(cursor);
        List<PgSession.Row> rows = pool.with((s, plans) -> s.page(category, brand, minPrice, maxPrice, sort,
                limit, (Long) after[0], (String) after[1], plans));
        json(ctx, 200, PgAnswers.page(rows, limit, sort));
    }

    /** The harness's sorts by their wire names; price when absent, as the contract's default. */
    private static CatalogModel.Sort sortParam(String wire) {
        if (wire == null) {
            return CatalogModel.Sort.PRICE;
        }
        for (CatalogModel.Sort s : CatalogModel.Sort.values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("sort must be one of price, -updatedAt, -price; was " + wire);
    }

    private void facets(Context ctx) throws Exception {
        String category = ctx.queryParam("category");
        List<String> brands = ctx.queryParams("brand");
        Long minPrice = longParam(ctx, "minPrice");
        Long maxPrice = longParam(ctx, "maxPrice");
        Boolean inStock = ctx.queryParam("inStock") == null ? null : Boolean.parseBoolean(ctx.queryParam("inStock"));
        int brandLimit = ctx.queryParam("brandLimit") == null ? 100 : Integer.parseInt(ctx.queryParam("brandLimit"));
        PgSession.FacetRow row = pool.with((s, plans) -> s.facets(category, brands, minPrice, maxPrice, inStock,
                brandLimit, plans));
        json(ctx, 200, PgAnswers.facets(row));
    }

    private void tuning(Context ctx) {
        if (ctx.queryParam("pool") != null) {
            pool.resize(Integer.parseInt(ctx.queryParam("pool")));
        }
        if (ctx.queryParam("plans") != null) {
            pool.plans(PgPlans.parse(ctx.queryParam("plans")));
        }
        json(ctx, 200, "{\"pool\":" + pool.size() + ",\"plans\":\"" + pool.plans().text() + "\"}");
    }

    private static Long longParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        return v == null ? null : Long.parseLong(v);
    }

    private static void json(Context ctx, int status, String body) {
        ctx.status(status).contentType("application/json").result(body.getBytes(StandardCharsets.UTF_8));
    }
}
