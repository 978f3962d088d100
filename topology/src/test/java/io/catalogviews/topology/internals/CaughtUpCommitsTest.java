package io.catalogviews.topology.internals;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

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
        List.copyOf(task.scheduledPunctuators()).stream().filter(p -> !p.cancelled())
                .forEach(p -> p.getPunctuator().punctuate(nowMs));
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
    void shouldTickOnTheWallClockOnlyWhileAFreshRecordWaitsForTheGate() {
        assertThat(askedAfterRecordAt(NOW, NOW)).isTrue();
        assertThat(context.scheduledPunctuators()).as("nothing waits: an idle task must not tick").isEmpty();

        assertThat(askedAfterRecordAt(NOW + 10, NOW + 10)).isFalse();
        assertThat(askedAfterRecordAt(NOW + 20, NOW + 20)).isFalse();
        assertThat(context.scheduledPunctuators()).singleElement().satisfies(p -> {
            assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(50));
            assertThat(p.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
        });

        assertThat(askedAtTick(context, NOW + 60)).isTrue();
        assertThat(context.scheduledPunctuators()).allSatisfy(p -> assertThat(p.cancelled()).isTrue());
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

        // Far in the future, so that no earlier use of this thread's gate in the same JVM shuts it.
        long later = NOW + 365L * 24 * 3600 * 1000;
        assertThat(askedAfterRecordAt(task, defaults, later, later - CaughtUpCommits.DEFAULT_CAUGHT_UP_WITHIN_MS))
                .isTrue();
        assertThat(askedAfterRecordAt(task, defaults, later + 1, later + 1)).isFalse();
        assertThat(task.scheduledPunctuators()).singleElement().satisfies(p ->
                assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(CaughtUpCommits.DEFAULT_INTERVAL_MS)));
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

    /**
     * Record timestamps come from outside (any producer sets them): whatever they are — negative, zero, far in the
     * past or future, the extremes of a long — a thread never asks twice within the interval, and a fresh record
     * is never left without an ask after it or a tick to ask for it. Seeded, so a failure repeats.
     */
    @Test
    void shouldNeverAskTwiceWithinTheIntervalNorForgetAFreshRecordWhateverTheTimestamps() {
        Random random = new Random(20261203L);
        for (int round = 0; round < 200; round++) {
            ThreadLocal<long[]> gate = ThreadLocal.withInitial(() -> new long[1]);
            List<MockProcessorContext<Void, Void>> tasks = new ArrayList<>();
            List<CaughtUpCommits> policies = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                MockProcessorContext<Void, Void> task = new MockProcessorContext<>();
                tasks.add(task);
                policies.add(new CaughtUpCommits(task, 50, 1_000, gate));
            }
            long now = NOW;
            Long lastAsk = null;
            for (int step = 0; step < 300; step++) {
                now += random.nextInt(40);
                int t = random.nextInt(tasks.size());
                MockProcessorContext<Void, Void> task = tasks.get(t);
                boolean asked;
                long timestamp = hostileTimestamp(random, now);
                boolean fresh = timestamp >= now - 1_000;
                if (random.nextInt(4) == 0) {
                    asked = askedAtTick(task, now);
                    fresh = false;
                } else {
                    asked = askedAfterRecordAt(task, policies.get(t), now, timestamp);
                }
                if (asked) {
                    if (lastAsk != null) {
                        assertThat(now - lastAsk).as("round %d step %d: asks apart (ms)", round, step)
                                .isGreaterThanOrEqualTo(50);
                    }
                    lastAsk = now;
                } else if (fresh) {
                    assertThat(task.scheduledPunctuators()).as("round %d step %d: a fresh record waits", round, step)
                            .anySatisfy(p -> assertThat(p.cancelled()).isFalse());
                }
            }
        }
    }

    private static long hostileTimestamp(Random random, long now) {
        return switch (random.nextInt(8)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> -1L;
            case 3 -> 0L;
            case 4 -> random.nextLong();
            case 5 -> now + random.nextInt(100_000);
            default -> now - random.nextInt(2_000);
        };
    }

    private static Properties config(String key, String value) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "caught-up-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(key, value);
        return p;
    }
}
