package io.catalogviews.bench.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.JsonCheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What one query asks, independent of who answers it (the service over HTTP, PostgreSQL over HTTP or JDBC), and
 * what the reference model says the answer is.
 */
public sealed interface Spec {

    /** Null when {@code answer} is what the model expects, otherwise a short description of the difference. */
    String check(JsonNode answer, CatalogModel model);

    /**
     * The right answer's bytes as the harness renders them (compared before any parse, {@link ExpectedBody}), or
     * null when only {@link #check} can tell (the ceiling's constant answers are checked by size instead).
     */
    ExpectedBody expectedBody(CatalogModel model);

    /** {@code GET /v1/products/{id}}. */
    record GetById(int product) implements Spec {
        @Override
        public String check(JsonNode answer, CatalogModel model) {
            return JsonCheck.difference(parse(model.json(product)), answer);
        }

        @Override
        public ExpectedBody expectedBody(CatalogModel model) {
            return ExpectedBody.exact(model.json(product));
        }
    }

    /** {@code POST /v1/products/batch} of existing products, all found. */
    record Batch(int[] products) implements Spec {
        @Override
        public String check(JsonNode answer, CatalogModel model) {
            return JsonCheck.difference(parse(json(model)), answer);
        }

        @Override
        public ExpectedBody expectedBody(CatalogModel model) {
            return ExpectedBody.exact(json(model));
        }

        private String json(CatalogModel model) {
            StringBuilder b = new StringBuilder(products.length * 420).append("{\"products\":[");
            for (int k = 0; k < products.length; k++) {
                b.append(k == 0 ? "" : ",").append(model.json(products[k]));
            }
            return b.append("],\"missing\":[]}").toString();
        }
    }

    /**
     * A listing page. {@code category} null for the whole catalog, {@code brand} null for any, {@code offset} the
     * items before this page (a deep page), {@code expected} the products of the page and {@code more} whether a
     * further item matches (then {@code nextCursor} must not be null), {@code after} the product just before the
     * page ({@code -1} on a first page), from which keyset pagination starts.
     */
    record Page(String category, String brand, Long minPrice, Long maxPrice, CatalogModel.Sort sort, int limit,
                int offset, int after, int[] expected, boolean more) implements Spec {
        @Override
        public String check(JsonNode answer, CatalogModel model) {
            String d = JsonCheck.difference(parse(items(model).append("]}").toString()), answer);
            if (d != null) {
                return d;
            }
            JsonNode next = answer.get("nextCursor");
            if (next == null) {
                return "$.nextCursor is missing";
            }
            if (next.isNull() == more) {
                return more ? "$.nextCursor is null but more items match" : "$.nextCursor is not null after the last item";
            }
            return null;
        }

        @Override
        public ExpectedBody expectedBody(CatalogModel model) {
            StringBuilder b = items(model).append("],\"nextCursor\":");
            return more ? ExpectedBody.withCursorAfter(b.toString()) : ExpectedBody.exact(b.append("null}").toString());
        }

        /** {@code {"items":[<products>} without the closing bracket. */
        private StringBuilder items(CatalogModel model) {
            StringBuilder b = new StringBuilder(expected.length * 420 + 64).append("{\"items\":[");
            for (int k = 0; k < expected.length; k++) {
                b.append(k == 0 ? "" : ",").append(model.json(expected[k]));
            }
            return b;
        }
    }

    /** {@code GET /v1/facets?category=c}: the expected body, computed once from the model. */
    record Facets(String category, String expectedJson) implements Spec {
        @Override
        public String check(JsonNode answer, CatalogModel model) {
            return JsonCheck.difference(parse(expectedJson), answer);
        }

        @Override
        public ExpectedBody expectedBody(CatalogModel model) {
            return ExpectedBody.exact(expectedJson);
        }
    }

    /** The HTTP ceiling: constant bytes of a given size (checked by size, not by the model). */
    record Constant(int size) implements Spec {
        @Override
        public String check(JsonNode answer, CatalogModel model) {
            return null;
        }

        @Override
        public ExpectedBody expectedBody(CatalogModel model) {
            return null;
        }
    }

    static JsonNode parse(String json) {
        try {
            return JsonCheck.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("the harness rendered invalid JSON: " + json, e);
        }
    }

    /** Ids of products, for messages. */
    static List<String> ids(int[] products) {
        return java.util.Arrays.stream(products).mapToObj(io.catalogviews.bench.catalog.SyntheticCatalog::productId)
                .toList();
    }
}
