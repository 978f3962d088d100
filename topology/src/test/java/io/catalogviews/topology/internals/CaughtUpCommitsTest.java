package io.catalogviews.topology.internals;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CaughtUpCommitsTest {

    private static final long NOW = 1_800_000_000_000L;

    /** One stream thread's gate, shared by the tasks of the test. */
    private final ThreadLocal<long[]> thread = ThreadLocal.withInitial(() -> new long[1]);
    private final MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
    private final CaughtUpCommits commits = new CaughtUpCommits(context, 50, 1_000, thread);

    private boolean askedAfterRecordAt(long nowMs, long recordTimestampMs) {
        return askedAfterRecordAt(context, commits, nowMs, recordTimestampMs);
    }

    private static boolean askedAfterRecordAt(MockProcessorContext<Void, Void> task, CaughtUpCommits policy,
                                              long nowMs, long recordTimestampMs) {
        task.resetCommit();
        task.setCurrentSystemTimeMs(nowMs);
        policy.onRecord(recordTimestampMs);
        return task.committed();
    }

    private static boolean askedAtTick(MockProcessorContext<Void, Void> task, long nowMs) {
        task.resetCommit();
        task.scheduledPunctuators().forEach(p -> p.getPunctuator().punctuate(nowMs));
        return task.committed();
    }

    @Test
    void shouldAskForACommitWhenTheRecordIsFresh() {
        assertThat(askedAfterRecordAt(NOW, NOW - 20)).isTrue();
    }

    @Test
    void shouldLeaveCommitsToTheIntervalWhenTheRecordIsOlderThanCaughtUp() {
        assertThat(askedAfterRecordAt(NOW, NOW - 1_001)).isFalse();
        assertThat(askedAfterRecordAt(NOW + 5_000, NOW)).isFalse();
        assertThat(askedAtTick(context, NOW + 5_100)).isFalse();
    }

    @Test
    void shouldAskAtMostOncePerIntervalWhenRecordsKeepComing() {
        assertThat(askedAfterRecordAt(NOW, NOW)).isTrue();
        assertThat(askedAfterRecordAt(NOW + 10, NOW + 10)).isFalse();
        assertThat(askedAfterRecordAt(NOW + 49, NOW + 49)).isFalse();
        assertThat(askedAfterRecordAt(NOW + 50, NOW + 50)).isTrue();
    }

    @Test
    void shouldAskAtTheNextTickWhenAFreshRecordCameWhileTheGateWasShut() {
        assertThat(askedAfterRecordAt(NOW, NOW)).isTrue();
        assertThat(askedAfterRecordAt(NOW + 10, NOW + 10)).isFalse();

        assertThat(askedAtTick(context, NOW + 30)).as("still within the interval").isFalse();
        assertThat(askedAtTick(context, NOW + 60)).isTrue();
        assertThat(askedAtTick(context, NOW + 200)).as("nothing new since").isFalse();
    }

    @Test
    void shouldTickEveryIntervalOnTheWallClockWhenEnabled() {
        assertThat(context.scheduledPunctuators()).singleElement().satisfies(p -> {
            assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(50));
            assertThat(p.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
        });
    }

    @Test
    void shouldShareTheIntervalBetweenTheTasksOfOneThreadWhenTheyCommitTogether() {
        MockProcessorContext<Void, Void> otherTask = new MockProcessorContext<>();
        CaughtUpCommits otherPolicy = new CaughtUpCommits(otherTask, 50, 1_000, thread);

        assertThat(askedAfterRecordAt(NOW, NOW)).isTrue();
        assertThat(askedAfterRecordAt(otherTask, otherPolicy, NOW + 10, NOW + 10)).isFalse();
        assertThat(askedAtTick(otherTask, NOW + 50)).as("the other task asks for its own record").isTrue();
    }

    @Test
    void shouldKeepCommittingWhenTheClockIsSetBack() {
        assertThat(askedAfterRecordAt(NOW, NOW)).isTrue();
        assertThat(askedAfterRecordAt(NOW - 60_000, NOW - 60_000)).isTrue();
    }

    @Test
    void shouldNeitherAskNorTickWhenTheIntervalIsZero() {
        MockProcessorContext<Void, Void> task = new MockProcessorContext<>(config(CaughtUpCommits.INTERVAL_CONFIG, "0"));
        CaughtUpCommits off = CaughtUpCommits.of(task);

        assertThat(askedAfterRecordAt(task, off, NOW, NOW)).isFalse();
        assertThat(task.scheduledPunctuators()).isEmpty();
    }

    @Test
    void shouldUseTheDefaultsWhenNothingIsConfigured() {
        MockProcessorContext<Void, Void> task = new MockProcessorContext<>();
        CaughtUpCommits defaults = CaughtUpCommits.of(task);

        assertThat(task.scheduledPunctuators()).singleElement().satisfies(p ->
                assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(CaughtUpCommits.DEFAULT_INTERVAL_MS)));
        // Far in the future, so that no earlier use of this thread's gate in the same JVM shuts it.
        long later = NOW + 365L * 24 * 3600 * 1000;
        assertThat(askedAfterRecordAt(task, defaults, later, later - CaughtUpCommits.DEFAULT_CAUGHT_UP_WITHIN_MS))
                .isTrue();
    }

    @Test
    void shouldNameThePropertyWhenAValueIsNotANumberOrNegative() {
        assertThatThrownBy(() -> CaughtUpCommits.of(
                new MockProcessorContext<>(config(CaughtUpCommits.CAUGHT_UP_WITHIN_CONFIG, "soon"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CaughtUpCommits.CAUGHT_UP_WITHIN_CONFIG).hasMessageContaining("soon");
        assertThatThrownBy(() -> CaughtUpCommits.of(
                new MockProcessorContext<>(config(CaughtUpCommits.INTERVAL_CONFIG, "-5"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CaughtUpCommits.INTERVAL_CONFIG);
    }

    private static Properties config(String key, String value) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "caught-up-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(key, value);
        return p;
    }
}
