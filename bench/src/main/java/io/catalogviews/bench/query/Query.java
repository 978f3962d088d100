package io.catalogviews.bench.query;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.HttpConnection;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * One request: its HTTP form (prepared bytes), what it asks ({@link Spec}), the bytes of its right answer as the
 * harness renders it ({@code expected}, null when there are none: compared first, parsed only on a mismatch) and
 * its slot in the workload's pool ({@code -1} when it is drawn afresh each time, like a get of a random id), under
 * which a verified answer that differs from {@code expected} is remembered byte for byte.
 */
public record Query(int slot, String target, byte[] head, byte[] body, Spec spec, ExpectedBody expected) {

    /** A GET without expected bytes (the ceiling's constant answers). */
    public static Query get(int slot, String target, Spec spec) {
        return new Query(slot, target, HttpConnection.get(target), null, spec, null);
    }

    /** A GET whose right answer {@code model} renders now. */
    public static Query get(int slot, String target, Spec spec, CatalogModel model) {
        return new Query(slot, target, HttpConnection.get(target), null, spec, spec.expectedBody(model));
    }

    /** A JSON POST without expected bytes (the ceiling's constant answers). */
    public static Query post(int slot, String target, byte[] body, Spec spec) {
        return new Query(slot, target, HttpConnection.postJson(target, body), body, spec, null);
    }

    /** A JSON POST whose right answer {@code model} renders now. */
    public static Query post(int slot, String target, byte[] body, Spec spec, CatalogModel model) {
        return new Query(slot, target, HttpConnection.postJson(target, body), body, spec, spec.expectedBody(model));
    }

    /** Where the load threads draw their queries from. */
    public interface Workload {
        QueryClass queryClass();

        /** Slots of remembered answers ({@code 0} when every query is checked in full). */
        int slots();

        Query pick(SplittableRandom random);

        /** A fixed pool drawn uniformly. */
        static Workload pool(QueryClass c, List<Query> queries) {
            if (queries.isEmpty()) {
                throw new IllegalArgumentException("no query of class " + c.key + " fits this catalog");
            }
            return new Workload() {
                @Override
                public QueryClass queryClass() {
                    return c;
                }

                @Override
                public int slots() {
                    return queries.size();
                }

                @Override
                public Query pick(SplittableRandom random) {
                    return queries.get(random.nextInt(queries.size()));
                }
            };
        }

        /** A fresh query each time, from a random number below {@code bound}. */
        static Workload generated(QueryClass c, int bound, IntFunction<Query> make) {
            return new Workload() {
                @Override
                public QueryClass queryClass() {
                    return c;
                }

                @Override
                public int slots() {
                    return 0;
                }

                @Override
                public Query pick(SplittableRandom random) {
                    return make.apply(random.nextInt(bound));
                }
            };
        }
    }
}
