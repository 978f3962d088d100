package io.catalogviews.bench.freshness;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.http.JsonCheck;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CategoryPageProbesTest {

    private static JsonNode page(String items) throws Exception {
        return JsonCheck.MAPPER.readTree("{\"items\":[" + items + "],\"nextCursor\":null}");
    }

    @Test
    void shouldSeeTheChangeWhenTheProductIsListedAtItsNewPriceAndVersion() throws Exception {
        JsonNode listed = page("{\"id\":\"p-1\",\"priceCents\":900,\"version\":3},"
                + "{\"id\":\"p-2\",\"priceCents\":900,\"version\":7}");

        assertThat(CategoryPageProbes.listed(listed, "p-2", 900, 7)).isTrue();
        assertThat(CategoryPageProbes.listed(listed, "p-2", 900, 6)).as("a later version").isTrue();
    }

    @Test
    void shouldNotSeeTheChangeWhenTheProductIsAbsentOrOlder() throws Exception {
        assertThat(CategoryPageProbes.listed(page(""), "p-2", 900, 7)).isFalse();
        assertThat(CategoryPageProbes.listed(page("{\"id\":\"p-2\",\"priceCents\":900,\"version\":6}"), "p-2", 900,
                7)).as("older version").isFalse();
        assertThat(CategoryPageProbes.listed(page("{\"id\":\"p-2\",\"priceCents\":800,\"version\":7}"), "p-2", 900,
                7)).as("other price").isFalse();
    }

    @Test
    void shouldPollEvery20MillisecondsFirstAndThenAtFivePercentOfTheWaitWhenTheChangeTakesLonger() {
        assertThat(CategoryPageProbes.pollIntervalMillis(0)).isEqualTo(20);
        assertThat(CategoryPageProbes.pollIntervalMillis(150_000_000L)).as("after 150 ms").isEqualTo(20);
        assertThat(CategoryPageProbes.pollIntervalMillis(1_000_000_000L)).as("after 1 s").isEqualTo(50);
        assertThat(CategoryPageProbes.pollIntervalMillis(8_000_000_000L)).as("after 8 s").isEqualTo(400);
    }

    @Test
    void shouldFollowTheCursorWhenThePriceFillsMoreThanAPageBeforeTheProduct() throws Exception {
        JsonNode full = JsonCheck.MAPPER.readTree("{\"items\":[{\"id\":\"p-0000314\",\"priceCents\":999},"
                + "{\"id\":\"p-0008455\",\"priceCents\":999}],\"nextCursor\":\"c2\"}");

        assertThat(CategoryPageProbes.laterPage(full, "p-0667888")).isEqualTo("c2");
        assertThat(CategoryPageProbes.laterPage(full, "p-0000314")).as("on this page").isNull();
        assertThat(CategoryPageProbes.laterPage(full, "p-0000400")).as("would sort within this page").isNull();
        assertThat(CategoryPageProbes.laterPage(page("{\"id\":\"p-0000314\",\"priceCents\":999}"), "p-0667888"))
                .as("no later page").isNull();
        assertThat(CategoryPageProbes.laterPage(page(""), "p-0667888")).as("empty page").isNull();
    }
}
