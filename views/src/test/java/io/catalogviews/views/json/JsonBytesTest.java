package io.catalogviews.views.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonBytesTest {

    @ParameterizedTest(name = "U+{0} is written as {1}")
    @CsvSource(delimiter = '|', value = {
        "0022|\\\"",
        "005C|\\\\",
        "000A|\\n",
        "000D|\\r",
        "0009|\\t",
        "0008|\\b",
        "000C|\\f",
        "0000|\\u0000",
        "0001|\\u0001",
        "001F|\\u001f",
        "002F|/",
        "007F|\u007f",
    })
    void shouldEscapeWhatJsonRequiresWhenWritingAString(String codePoint, String escaped) {
        String text = new String(Character.toChars(Integer.parseInt(codePoint, 16)));

        assertThat(written(new JsonBytes(16).string(text))).isEqualTo("\"" + escaped + "\"");
    }

    @Test
    void shouldWriteUtf8WhenTheStringIsNotAscii() {
        String text = "aé日😀b";

        byte[] bytes = new JsonBytes(4).string(text).toByteArray();

        assertThat(bytes).isEqualTo(("\"" + text + "\"").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldGrowPastItsInitialCapacityWhenWritingMuch() {
        JsonBytes out = new JsonBytes(1);
        String long1 = "x".repeat(10_000);

        out.raw((byte) '[').string(long1).comma().number(Long.MIN_VALUE).comma().bool(false).comma().nullValue()
                .raw((byte) ']');

        assertThat(written(out)).isEqualTo("[\"" + long1 + "\"," + Long.MIN_VALUE + ",false,null]");
        assertThat(out.length()).isEqualTo(out.toByteArray().length);
    }

    @Test
    void shouldWriteNameAndColonWhenWritingAName() {
        assertThat(written(new JsonBytes(0).raw((byte) '{').name("id").number(7).raw((byte) '}')))
                .isEqualTo("{\"id\":7}");
    }

    @Test
    void shouldCopyOnlyTheGivenSliceWhenWritingRawBytes() {
        byte[] source = "abcdef".getBytes(StandardCharsets.US_ASCII);

        assertThat(written(new JsonBytes(2).raw(source, 1, 3))).isEqualTo("bcd");
    }

    private static String written(JsonBytes out) {
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }
}
