package io.catalogviews.api.listing;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RenderedBodiesTest {

    /** An answer with value equality, as a page or facets record: two equal answers are still two objects. */
    private record Answer(String text) {
    }

    private final AtomicInteger renders = new AtomicInteger();
    private final BiFunction<Answer, String, byte[]> render = (answer, params) -> {
        renders.incrementAndGet();
        return (answer.text() + "|" + params).getBytes(StandardCharsets.UTF_8);
    };

    @Test
    void shouldRenderOnceWhenTheSameAnswerIsServedAgainWithEqualParameters() {
        RenderedBodies<Answer, String> bodies = new RenderedBodies<>(8);
        Answer kept = new Answer("page");

        byte[] first = bodies.body(kept, "q", render);
        byte[] again = bodies.body(kept, new String("q"), render);

        assertThat(again).isSameAs(first).asString(StandardCharsets.UTF_8).isEqualTo("page|q");
        assertThat(renders).hasValue(1);
    }

    @Test
    void shouldRenderAgainWhenAnEqualAnswerIsAnotherObject() {
        RenderedBodies<Answer, String> bodies = new RenderedBodies<>(8);

        bodies.body(new Answer("page"), "q", render);
        bodies.body(new Answer("page"), "q", render);

        assertThat(renders).as("an answer read again from a store is new, and may differ in what equals ignores")
                .hasValue(2);
    }

    @Test
    void shouldRenderAgainWhenTheParametersDiffer() {
        RenderedBodies<Answer, String> bodies = new RenderedBodies<>(8);
        Answer kept = new Answer("page");

        bodies.body(kept, "q1", render);
        byte[] other = bodies.body(kept, "q2", render);

        assertThat(other).asString(StandardCharsets.UTF_8).isEqualTo("page|q2");
        assertThat(renders).hasValue(2);
    }

    @Test
    void shouldRememberNothingWhenTheRenderThrows() {
        RenderedBodies<Answer, String> bodies = new RenderedBodies<>(8);
        Answer kept = new Answer("over budget");

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> bodies.body(kept, "q", (a, p) -> {
                renders.incrementAndGet();
                throw new IllegalStateException("too broad");
            })).hasMessage("too broad");
        }
        assertThat(renders).hasValue(2);
    }

    @Test
    void shouldRefuseWhenTheSlotsAreNotAPowerOfTwo() {
        assertThatThrownBy(() -> new RenderedBodies<Answer, String>(12)).hasMessageContaining("power of two");
        assertThatThrownBy(() -> new RenderedBodies<Answer, String>(0)).hasMessageContaining("power of two");
    }

    @Test
    void shouldAnswerEveryReaderWithTheBodyOfItsOwnAnswerWhenThreadsShareFewSlots() throws Exception {
        RenderedBodies<Answer, String> bodies = new RenderedBodies<>(4);
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            answers.add(new Answer("a" + (i % 8))); // equal answers that are distinct objects share nothing
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> wrong = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = 20261204L + t;
                wrong.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    int mismatches = 0;
                    for (int i = 0; i < 50_000; i++) {
                        Answer answer = answers.get(random.nextInt(answers.size()));
                        String params = "q" + random.nextInt(3);
                        String body = new String(bodies.body(answer, params, render), StandardCharsets.UTF_8);
                        if (!body.equals(answer.text() + "|" + params)) {
                            mismatches++;
                        }
                    }
                    return mismatches;
                }));
            }
            for (Future<Integer> w : wrong) {
                assertThat(w.get(60, TimeUnit.SECONDS)).as("bodies of another answer or parameters").isZero();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(renders.get()).as("some reads were served from the slots").isLessThan(200_000);
    }
}
