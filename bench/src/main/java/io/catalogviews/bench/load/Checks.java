package io.catalogviews.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.bench.query.ExpectedBody;
import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Checks every answer of one load run against the reference model, at the same cost per right answer for every
 * target: the body is first compared with the bytes the harness rendered for that query before the run
 * ({@link ExpectedBody}); only a body that differs is parsed (Jackson) and compared field by field with what the
 * model expects. A parsed answer of a pooled query that is right is remembered, and a later byte-identical answer
 * to the same query is right without a parse (the data does not change during a query run). So every answer is
 * checked, and the client spends little of the shared CPU on it whoever answers.
 */
public final class Checks {

    private final CatalogModel model;
    private final AtomicReferenceArray<byte[]> verified;

    public Checks(CatalogModel model, int slots) {
        this.model = model;
        this.verified = new AtomicReferenceArray<>(Math.max(1, slots));
    }

    public CatalogModel model() {
        return model;
    }

    /** Checks one HTTP answer: 5xx is an error, any other status but 200 or a different body a wrong answer. */
    public Target.Outcome http(Query q, HttpConnection.Response r) {
        byte[] body = r.body();
        if (r.status() >= 500) {
            return new Target.Outcome(Target.Kind.ERROR, body.length, "HTTP " + r.status() + " " + snippet(body));
        }
        if (r.status() != 200) {
            return new Target.Outcome(Target.Kind.WRONG, body.length, q.target() + ": HTTP " + r.status() + " "
                    + snippet(body));
        }
        return body(q, body);
    }

    /** Checks the body of a successful answer (over HTTP, or the one a JDBC client renders from its rows). */
    public Target.Outcome body(Query q, byte[] body) {
        if (q.spec() instanceof Spec.Constant c) {
            return body.length == c.size() ? Target.Outcome.ok(body.length)
                    : new Target.Outcome(Target.Kind.WRONG, body.length, "constant answer of " + body.length
                    + " bytes, expected " + c.size());
        }
        ExpectedBody expected = q.expected();
        if (expected != null && expected.matches(body)) {
            return Target.Outcome.ok(body.length);
        }
        if (q.slot() >= 0 && Arrays.equals(verified.get(q.slot()), body)) {
            return Target.Outcome.ok(body.length);
        }
        String difference;
        try {
            JsonNode answer = JsonCheck.MAPPER.readTree(body);
            difference = q.spec().check(answer, model);
        } catch (IOException e) {
            difference = "not JSON: " + e.getMessage();
        }
        if (difference != null) {
            return new Target.Outcome(Target.Kind.WRONG, body.length, q.target() + ": " + difference, true);
        }
        if (q.slot() >= 0) {
            verified.set(q.slot(), body);
        }
        return new Target.Outcome(Target.Kind.OK, body.length, null, true);
    }

    private static String snippet(byte[] body) {
        String s = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
        return s.replace('\n', ' ');
    }
}
