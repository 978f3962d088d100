package io.catalogviews.bench.results;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatsTest {

    @Test
    void shouldTakeTheMiddleValueWhenTheCountIsOddAndTheMeanOfTheTwoWhenEven() {
        assertThat(Stats.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Stats.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(Stats.median(List.of(7.0))).isEqualTo(7.0);
        assertThat(Stats.median(List.of())).isNaN();
    }

    @Test
    void shouldGiveTheRangeWhenAskedForMinAndMax() {
        assertThat(Stats.min(List.of(3.0, 1.0, 2.0))).isEqualTo(1.0);
        assertThat(Stats.max(List.of(3.0, 1.0, 2.0))).isEqualTo(3.0);
    }
}
