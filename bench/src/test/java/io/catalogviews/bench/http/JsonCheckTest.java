package io.catalogviews.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsonCheckTest {

    private static JsonNode json(String s) throws Exception {
        return JsonCheck.MAPPER.readTree(s);
    }

    @Test
    void shouldAcceptExtraFieldsAndOtherFieldOrderWhenEveryExpectedFieldIsEqual() throws Exception {
        assertThat(JsonCheck.difference(json("{\"a\":1,\"b\":[1,2]}"), json("{\"b\":[1,2],\"a\":1,\"c\":true}")))
                .isNull();
    }

    @Test
    void shouldNameTheFirstDifferenceWhenOrderValueOrLengthDiffers() throws Exception {
        assertThat(JsonCheck.difference(json("{\"items\":[1,2]}"), json("{\"items\":[2,1]}")))
                .isEqualTo("$.items[0] is 2, expected 1");
        assertThat(JsonCheck.difference(json("{\"items\":[1,2]}"), json("{\"items\":[1]}")))
                .contains("has 1 elements");
        assertThat(JsonCheck.difference(json("{\"a\":null}"), json("{}"))).isEqualTo("$.a is missing");
    }

    @Test
    void shouldRejectALongFloatTextWhenTheContractWantsTheShortestOne() throws Exception {
        assertThat(JsonCheck.difference(json("{\"rating\":4.3}"), json("{\"rating\":4.300000190734863}")))
                .isNotNull();
        assertThat(JsonCheck.difference(json("{\"n\":5}"), json("{\"n\":5}"))).isNull();
    }
}
