package io.catalogviews.bench.load;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.Spec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChecksTest {

    private CatalogModel model;
    private Checks checks;

    @BeforeEach
    void catalog() {
        model = new CatalogModel(new SyntheticCatalog(5), 100);
        for (int i = 0; i < 100; i++) {
            model.upsert(i);
        }
        checks = new Checks(model, 4);
    }

    private Query get(int product) {
        return Query.get(-1, "/v1/products/" + SyntheticCatalog.productId(product), new Spec.GetById(product), model);
    }

    private static HttpConnection.Response ok(String body) {
        return new HttpConnection.Response(200, body.getBytes(StandardCharsets.UTF_8));
    }

    /** The same product JSON with its fields in reverse order: right, but not the bytes the harness renders. */
    private String reordered(int product) throws Exception {
        Map<String, Object> fields = JsonCheck.MAPPER.readValue(model.json(product), Map.class);
        List<Map.Entry<String, Object>> entries = new ArrayList<>(fields.entrySet());
        Collections.reverse(entries);
        Map<String, Object> reversed = new java.util.LinkedHashMap<>();
        entries.forEach(e -> reversed.put(e.getKey(), e.getValue()));
        return JsonCheck.MAPPER.writeValueAsString(reversed);
    }

    @Test
    void shouldRecogniseARightAnswerByItsBytesWithoutParsingWhenItIsRenderedAsExpected() {
        Target.Outcome o = checks.http(get(7), ok(model.json(7)));

        assertThat(o.kind()).isEqualTo(Target.Kind.OK);
        assertThat(o.parsed()).as("parsed").isFalse();
    }

    @Test
    void shouldParseAndAcceptARightAnswerWhenItsBytesDiffer() throws Exception {
        Target.Outcome o = checks.http(get(7), ok(reordered(7)));

        assertThat(o.kind()).isEqualTo(Target.Kind.OK);
        assertThat(o.parsed()).as("parsed").isTrue();
    }

    @Test
    void shouldRememberAParsedRightAnswerOfAPooledQueryWhenItComesAgain() throws Exception {
        Query pooled = Query.get(2, "/v1/products/p-0000007", new Spec.GetById(7), model);
        String body = reordered(7);

        assertThat(checks.http(pooled, ok(body)).parsed()).as("first answer parsed").isTrue();
        Target.Outcome again = checks.http(pooled, ok(body));
        assertThat(again.kind()).isEqualTo(Target.Kind.OK);
        assertThat(again.parsed()).as("second answer parsed").isFalse();
    }

    @Test
    void shouldCountAWrongAnswerWhenTheVersionIsOld() {
        String old = model.json(7).replace("\"version\":1", "\"version\":0");

        Target.Outcome o = checks.http(get(7), ok(old));

        assertThat(o.kind()).isEqualTo(Target.Kind.WRONG);
        assertThat(o.detail()).contains("$.version");
    }

    @Test
    void shouldCountAnErrorWhenTheStatusIs5xxAndAWrongAnswerWhenItIsAnother() {
        byte[] body = "{\"error\":{}}".getBytes(StandardCharsets.UTF_8);

        assertThat(checks.http(get(7), new HttpConnection.Response(503, body)).kind()).isEqualTo(Target.Kind.ERROR);
        assertThat(checks.http(get(7), new HttpConnection.Response(404, body)).kind()).isEqualTo(Target.Kind.WRONG);
    }

    @Test
    void shouldAcceptTheTargetsCursorWithoutParsingWhenAPageHasMore() {
        int[] listed = model.listing(null, model.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE);
        int[] first = java.util.Arrays.copyOf(listed, 3);
        Spec.Page page = new Spec.Page(null, null, null, null, CatalogModel.Sort.PRICE, 3, 0, -1, first, true);
        Query q = Query.get(0, "/v1/products?sort=price&limit=3", page, model);
        StringBuilder body = new StringBuilder("{\"items\":[");
        for (int k = 0; k < first.length; k++) {
            body.append(k == 0 ? "" : ",").append(model.json(first[k]));
        }
        String items = body.append("],\"nextCursor\":").toString();

        Target.Outcome withCursor = checks.http(q, ok(items + "\"opaque-cursor-1\"}"));
        Target.Outcome withoutCursor = checks.http(q, ok(items + "null}"));

        assertThat(withCursor.kind()).isEqualTo(Target.Kind.OK);
        assertThat(withCursor.parsed()).isFalse();
        assertThat(withoutCursor.kind()).isEqualTo(Target.Kind.WRONG);
        assertThat(withoutCursor.detail()).contains("nextCursor is null but more items match");
    }
}
