package io.catalogviews.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangelogProducedTest {

    private static final String APP = "catalog-views-bench";

    @Test
    void shouldSumTheStreamThreadsBytesPerChangelogTopicWhenOtherSeriesSitBesideThem() {
        String thread1 = "catalog-views-bench-1a2b-StreamThread-1-producer";
        String thread2 = "catalog-views-bench-1a2b-StreamThread-2-producer";
        String text = String.join("\n",
                series(thread1, APP + "-product-view-changelog", "1382953.0"),
                series(thread2, APP + "-product-view-changelog", "1367442.0"),
                series(thread2, APP + "-product-deletions-changelog", "12.0"),
                // A dead letter is not a changelog write; another application's changelog is not this one's.
                series(thread1, "catalog.dead-letters", "999.0"),
                series("other-app-StreamThread-1-producer", "other-app-products-changelog", "777.0"),
                // Not a stream thread's producer (an admin or a test's), and a series that is not a number.
                series("catalog-views-bench-admin-producer", APP + "-product-view-changelog", "555.0"),
                series(thread1, APP + "-x-changelog", "NaN"),
                "kafka_producer_topic_record_send_total{client_id=\"" + thread1 + "\",topic=\"" + APP
                        + "-product-view-changelog\"} 8777.0",
                "");
        MetricsScrape scrape = new MetricsScrape(PrometheusText.parse(text), null);

        assertThat(ChangelogProduced.bytesByTopic(scrape, APP)).containsExactlyInAnyOrderEntriesOf(Map.of(
                APP + "-product-view-changelog", 1_382_953L + 1_367_442L,
                APP + "-product-deletions-changelog", 12L));
    }

    @Test
    void shouldTellNothingWhenTheReadingFailedOrHasNoSuchSeries() {
        assertThat(ChangelogProduced.bytesByTopic(new MetricsScrape(List.of(), "GET /metrics answered 503"), APP))
                .isNull();
        assertThat(ChangelogProduced.bytesByTopic(
                new MetricsScrape(PrometheusText.parse("jvm_threads_live_threads 40\n"), null), APP)).isNull();
        assertThat(ChangelogProduced.bytesByTopic(null, APP)).isNull();
    }

    private static String series(String client, String topic, String value) {
        return ChangelogProduced.BYTES + "{client_id=\"" + client + "\",topic=\"" + topic + "\"} " + value;
    }
}
