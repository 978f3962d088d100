package io.catalogviews.bench.freshness;

import io.catalogviews.bench.query.Query;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.query.Spec;
import io.catalogviews.bench.results.ReadLoadFigures;
import io.javalin.Javalin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ReadLoadTest {

    private Javalin server;

    @BeforeEach
    void start() {
        server = Javalin.create(cfg -> {
            cfg.jetty.port = 0;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/ok", ctx -> ctx.result("{}"));
            cfg.routes.get("/gone", ctx -> ctx.status(404).result("{}"));
        }).start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    private static Query.Workload always(QueryClass c, String target) {
        return Query.Workload.pool(c, List.of(Query.get(0, target, new Spec.Constant(2))));
    }

    @Test
    void shouldSendTheClassesInTurnAndJudgeByStatusWhenRunAtARate() {
        ReadLoad load = new ReadLoad("http://127.0.0.1:" + server.port(),
                List.of(always(QueryClass.GET_BY_ID, "/ok"), always(QueryClass.FACETS, "/gone")), 200);

        load.start(1);
        await("100 requests sent").atMost(Duration.ofSeconds(30)).until(() -> load.sent() >= 100);
        ReadLoadFigures f = load.stop();

        assertThat(f.sent()).isGreaterThanOrEqualTo(100);
        assertThat(f.ok() + f.wrong() + f.errors()).isEqualTo(f.sent());
        assertThat(f.errors()).isZero();
        assertThat(f.ok()).as("the /ok half").isCloseTo(f.wrong(), org.assertj.core.data.Offset.offset(2L));
        assertThat(f.dropped()).isZero();
        assertThat(f.askedRate()).isEqualTo(200);
        assertThat(f.classes()).containsExactly("get-by-id", "facets");
    }

    @Test
    void shouldCountErrorsWhenNothingAnswers() {
        ReadLoad load = new ReadLoad("http://127.0.0.1:1", List.of(always(QueryClass.GET_BY_ID, "/ok")), 100);

        load.start(1);
        await("requests sent").atMost(Duration.ofSeconds(30)).until(() -> load.sent() >= 10);
        ReadLoadFigures f = load.stop();

        assertThat(f.ok()).isZero();
        assertThat(f.errors()).isEqualTo(f.sent());
    }
}
