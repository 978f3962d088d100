package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The contract's answer bodies from the PostgreSQL peer's rows: what its HTTP front writes, and what the JDBC target
 * renders from the same rows so that its answers are checked the same way, at the same cost, as every HTTP target's
 * (the stored JSON documents included). Cursors are {@code base64url("<sort value>|<id>")}.
 */
public final class PgAnswers {

    private PgAnswers() {
    }

    /** {@code {"products":[…],"missing":[…]}} in request order, each distinct id once. */
    public static String batch(Iterable<String> ids, List<PgSession.Row> rows) {
        Map<String, String> docs = new HashMap<>();
        for (PgSession.Row r : rows) {
            docs.put(r.id(), r.doc());
        }
        StringBuilder out = new StringBuilder(rows.size() * 450 + 32).append("{\"products\":[");
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
        return out.append("],\"missing\":[").append(missing).append("]}").toString();
    }

    /** A page of up to {@code limit} of {@code rows} (one more row means a next page exists). */
    public static String page(List<PgSession.Row> rows, int limit, CatalogModel.Sort sort) {
        int n = Math.min(limit, rows.size());
        StringBuilder out = new StringBuilder(n * 450 + 64).append("{\"items\":[");
        for (int k = 0; k < n; k++) {
            out.append(k == 0 ? "" : ",").append(rows.get(k).doc());
        }
        out.append("],\"nextCursor\":");
        if (rows.size() > limit) {
            PgSession.Row last = rows.get(n - 1);
            out.append('"').append(cursor(sort == CatalogModel.Sort.UPDATED_DESC ? last.updatedAt() : last.priceCents(), last.id())).append('"');
        } else {
            out.append("null");
        }
        return out.append('}').toString();
    }

    public static String cursor(long value, String id) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((value + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** {value, id} of a cursor. */
    public static Object[] parseCursor(String cursor) {
        String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", 2);
        return new Object[]{Long.parseLong(parts[0]), parts[1]};
    }

    public static String facets(PgSession.FacetRow row) {
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
}
