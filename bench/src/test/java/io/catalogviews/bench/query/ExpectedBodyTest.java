package io.catalogviews.bench.query;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ExpectedBodyTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldMatchOnlyTheSameBytesWhenTheAnswerIsExact() {
        ExpectedBody expected = ExpectedBody.exact("{\"id\":\"p-1\",\"version\":2}");

        assertThat(expected.matches(bytes("{\"id\":\"p-1\",\"version\":2}"))).isTrue();
        assertThat(expected.matches(bytes("{\"version\":2,\"id\":\"p-1\"}"))).as("same JSON, other order").isFalse();
        assertThat(expected.matches(bytes("{\"id\":\"p-1\",\"version\":3}"))).isFalse();
    }

    @Test
    void shouldAcceptAnyPlainCursorOfTheTargetWhenACursorFollows() {
        ExpectedBody expected = ExpectedBody.withCursorAfter("{\"items\":[{\"id\":\"p-1\"}],\"nextCursor\":");

        assertThat(expected.matches(bytes("{\"items\":[{\"id\":\"p-1\"}],\"nextCursor\":\"djF8MTIzfHAtMQ\"}")))
                .isTrue();
        assertThat(expected.matches(bytes("{\"items\":[{\"id\":\"p-1\"}],\"nextCursor\":\"a.b-c_d~e:f\"}"))).isTrue();
    }

    @Test
    void shouldLeaveTheAnswerToAParseWhenTheCursorIsNotAPlainString() {
        ExpectedBody expected = ExpectedBody.withCursorAfter("{\"items\":[],\"nextCursor\":");

        assertThat(expected.matches(bytes("{\"items\":[],\"nextCursor\":null}"))).as("null cursor").isFalse();
        assertThat(expected.matches(bytes("{\"items\":[],\"nextCursor\":\"\"}"))).as("empty cursor").isFalse();
        assertThat(expected.matches(bytes("{\"items\":[],\"nextCursor\":\"a\\\"b\"}"))).as("escaped quote").isFalse();
        assertThat(expected.matches(bytes("{\"items\":[],\"nextCursor\":\"ab\",\"x\":1}"))).as("more fields")
                .isFalse();
        assertThat(expected.matches(bytes("{\"items\":[{}],\"nextCursor\":\"ab\"}"))).as("other items").isFalse();
    }
}
