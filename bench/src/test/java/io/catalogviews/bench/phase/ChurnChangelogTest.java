package io.catalogviews.bench.phase;

import io.catalogviews.bench.results.ChangelogWrites;
import io.catalogviews.bench.service.Materialization;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChurnChangelogTest {

    @Test
    void shouldDivideTheChangelogsGrowthByTheChangesWhenBothReadingsExist() {
        Materialization.ChangelogState before = new Materialization.ChangelogState(
                Map.of("app-products-changelog", 1_000L, "app-category-rows-changelog", 5_000L),
                Map.of("app-products-changelog", 10L, "app-category-rows-changelog", 50L));
        Materialization.ChangelogState after = new Materialization.ChangelogState(
                Map.of("app-products-changelog", 301_000L, "app-category-rows-changelog", 705_000L),
                Map.of("app-products-changelog", 1_210L, "app-category-rows-changelog", 3_050L));

        ChangelogWrites w = ChurnPhase.changelogWrites(before, after, 1_000, null);

        assertThat(w.bytesWritten()).isEqualTo(1_000_000);
        assertThat(w.logGrowthBytes()).isEqualTo(1_000_000);
        assertThat(w.bytesPerChange()).isEqualTo(1_000.0);
        assertThat(w.offsetsWritten()).isEqualTo(4_200);
        assertThat(w.offsetsPerChange()).isEqualTo(4.2);
        assertThat(w.bytesWrittenByTopic()).containsEntry("app-category-rows-changelog", 700_000L);
    }

    @Test
    void shouldLeaveTheFigureOutWhenAReadingIsMissing() {
        Materialization.ChangelogState some = new Materialization.ChangelogState(Map.of(), Map.of());

        assertThat(ChurnPhase.changelogWrites(null, some, 10, null)).isNull();
        assertThat(ChurnPhase.changelogWrites(some, some, 0, null)).isNull();
    }

    @Test
    void shouldCountWhatTheProducersSentWhenTheCleanerShrankTheLogsMeanwhile() {
        Materialization.ChangelogState before = new Materialization.ChangelogState(
                Map.of("app-product-view-changelog", 9_000_000L), Map.of("app-product-view-changelog", 100L));
        Materialization.ChangelogState after = new Materialization.ChangelogState(
                Map.of("app-product-view-changelog", 7_000_000L), Map.of("app-product-view-changelog", 1_100L));
        Map<String, Long> sent = ChurnPhase.sent(Map.of("app-product-view-changelog", 500_000L),
                Map.of("app-product-view-changelog", 650_000L));

        ChangelogWrites w = ChurnPhase.changelogWrites(before, after, 1_000, sent);

        assertThat(w.bytesWritten()).isEqualTo(150_000);
        assertThat(w.bytesPerChange()).isEqualTo(150.0);
        assertThat(w.logGrowthBytes()).as("the logs shrank: the cleaner compacted them").isEqualTo(-2_000_000);
        assertThat(w.bytesWrittenByTopic()).containsExactly(Map.entry("app-product-view-changelog", 150_000L));
        assertThat(w.offsetsPerChange()).isEqualTo(1.0);
    }

    @Test
    void shouldFallBackToTheLogsWhenAProducerStartedCountingAgainBetweenTheReadings() {
        assertThat(ChurnPhase.sent(Map.of("app-product-view-changelog", 500_000L),
                Map.of("app-product-view-changelog", 20_000L))).isNull();
        assertThat(ChurnPhase.sent(null, Map.of("app-product-view-changelog", 20_000L))).isNull();
    }
}
