package io.catalogviews.bench.phase;

import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReadMixTest {

    private static Query.Workload of(QueryClass c) {
        return Query.Workload.pool(c, List.of(Query.get(0, "/x", new Spec.Constant(2))));
    }

    @Test
    void shouldAskEachClassAsOftenAsItsWeightAndSpreadItOverTheRoundWhenInterleaved() {
        List<Query.Workload> round = FreshnessPhase.interleaved(List.of(of(QueryClass.GET_BY_ID),
                of(QueryClass.FACETS), of(QueryClass.CATALOG_PAGE)));

        assertThat(round).extracting(w -> w.queryClass().key).containsExactly("get-by-id", "facets", "catalog-page",
                "get-by-id", "facets", "get-by-id", "get-by-id", "get-by-id", "get-by-id", "get-by-id", "get-by-id");
    }
}
