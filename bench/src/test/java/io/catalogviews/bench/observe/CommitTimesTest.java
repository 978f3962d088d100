package io.catalogviews.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CommitTimesTest {

    private static final String APP = "catalog-views-bench-0f3c";

    @Test
    void shouldSplitEachCommitIntoItsRoundTripsWhenTwoThreadsCommitted() {
        MetricsScrape before = scrape(10, 12, 1.0e9, 2.0e9, 0.5e9, 99.0e9);
        // 20 s later: 400 + 360 commits, 4 s of flushes, 4 s sending offsets, 1.5 s of EndTxn, summed over the threads
        MetricsScrape after = scrape(410, 372, 5.0e9, 6.0e9, 2.0e9, 1e12);

        CommitTimes commits = CommitTimes.between(before, after, 20);

        assertThat(commits.threads()).isEqualTo(2);
        assertThat(commits.commits()).isEqualTo(760);
        assertThat(commits.commitsPerThreadSecond()).isCloseTo(19.0, within(1e-9));
        assertThat(commits.flushMs()).isCloseTo(4_000, within(1e-6));
        assertThat(commits.offsetsMs()).as("send offsets, a NaN series left out").isCloseTo(4_000, within(1e-6));
        assertThat(commits.endMs()).as("EndTxn, from the stream threads' producers only")
                .isCloseTo(1_500, within(1e-6));
        assertThat(commits.perCommitMs()).isCloseTo(9_500 / 760.0, within(1e-9));
        assertThat(commits.blockedShare()).isCloseTo(9_500 / 40_000.0, within(1e-9));
        assertThat(commits.describe()).contains("2 threads × 19.0/s", "5.3 ms flush + 5.3 ms offsets + 2.0 ms EndTxn = 12.5 ms",
                "blocked in them 24 %");
    }

    @Test
    void shouldTellNothingWhenTheServiceHasNoStreamThreadCommits() {
        MetricsScrape none = new MetricsScrape(PrometheusText.parse("jvm_threads_live_threads 40\n"), null);
        MetricsScrape failed = new MetricsScrape(java.util.List.of(), "GET /metrics answered 503");

        assertThat(CommitTimes.between(none, none, 10)).isNull();
        assertThat(CommitTimes.between(failed, scrape(1, 1, 0, 0, 0, 0), 10)).isNull();
        assertThat(CommitTimes.between(scrape(1, 1, 0, 0, 0, 0), scrape(2, 2, 0, 0, 0, 0), 0)).isNull();
    }

    @Test
    void shouldCountNothingWhenCountersWentDownBetweenTheReadings() {
        CommitTimes commits = CommitTimes.between(scrape(500, 500, 9e9, 9e9, 9e9, 0), scrape(3, 4, 1e6, 1e6, 1e6, 0),
                10);

        assertThat(commits.commits()).isZero();
        assertThat(commits.perCommitMs()).isZero();
        assertThat(commits.blockedShare()).isZero();
    }

    @Test
    void shouldSayNoTimePerCommitWhenNoCommitEndedBetweenTheReadings() {
        // A commit under way at the second reading: its flush has been counted, the commit not yet.
        CommitTimes commits = CommitTimes.between(scrape(7, 7, 0, 0, 0, 0), scrape(7, 7, 4e6, 0, 0, 0), 1);

        assertThat(commits.commits()).isZero();
        assertThat(commits.describe()).contains("per commit 0.0 ms flush + 0.0 ms offsets + 0.0 ms EndTxn = 0.0 ms",
                "blocked in them 0 %");
        assertThat(commits.flushMs()).isCloseTo(4.0, within(1e-9));
    }

    /**
     * Two stream threads' commit counters and their producers' blocked times ({@code flush} and {@code end} split
     * evenly between the threads, {@code offsets} all on the first), plus another producer of the JVM that must not
     * count.
     */
    private static MetricsScrape scrape(double commits1, double commits2, double flush, double offsets, double end,
                                        double otherProducerEnd) {
        String text = """
                # TYPE kafka_stream_thread_commit_total counter
                kafka_stream_thread_commit_total{thread_id="%1$s-StreamThread-1"} %2$s
                kafka_stream_thread_commit_total{thread_id="%1$s-StreamThread-2"} %3$s
                kafka_producer_flush_time_ns_total{client_id="%1$s-StreamThread-1-producer"} %4$s
                kafka_producer_flush_time_ns_total{client_id="%1$s-StreamThread-2-producer"} %4$s
                kafka_producer_txn_send_offsets_time_ns_total{client_id="%1$s-StreamThread-1-producer"} %5$s
                kafka_producer_txn_send_offsets_time_ns_total{client_id="%1$s-StreamThread-2-producer"} NaN
                kafka_producer_txn_commit_time_ns_total{client_id="%1$s-StreamThread-1-producer"} %6$s
                kafka_producer_txn_commit_time_ns_total{client_id="%1$s-StreamThread-2-producer"} %6$s
                kafka_producer_txn_commit_time_ns_total{client_id="dead-letter-publisher"} %7$s
                """.formatted(APP, commits1, commits2, flush / 2, offsets, end / 2, otherProducerEnd);
        return new MetricsScrape(PrometheusText.parse(text), null);
    }
}
