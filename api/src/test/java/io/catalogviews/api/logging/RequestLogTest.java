package io.catalogviews.api.logging;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestLogTest {

    @Test
    void shouldWriteOneLineWithMethodTargetStatusAndTimeWhenARequestEnds() {
        String line = RequestLog.line("10.0.0.7", "GET", "/v1/products/p-42", "minVersion=3", 200, 1.84f,
                "host-b:8080");

        assertThat(line).isEqualTo("10.0.0.7 \"GET /v1/products/p-42?minVersion=3\" 200 1.8 ms served-by=host-b:8080");
    }

    @Test
    void shouldReplaceControlCharactersAndQuotesWhenTheTargetHoldsThem() {
        String line = RequestLog.line("::1", "GET", "/v1/x\r\nforged: line", "q=\"", 404, 0.1f, null);

        assertThat(line).doesNotContain("\r", "\n").isEqualTo("::1 \"GET /v1/x??forged: line?q=?\" 404 0.1 ms");
    }

    @Test
    void shouldCutTheTargetWhenItIsVeryLong() {
        String line = RequestLog.line("::1", "GET", "/" + "a".repeat(2000), null, 414, 0f, null);

        assertThat(line.length()).isLessThan(RequestLog.MAX_TARGET + 64);
    }
}
