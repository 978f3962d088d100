package io.catalogviews.bench.observe;

import io.catalogviews.bench.results.ServiceObservation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextTest {

    private static final String BEFORE = """
            # HELP jvm_gc_pause_seconds Time spent in GC pause
            # TYPE jvm_gc_pause_seconds summary
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 10
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.25
            jvm_gc_pause_seconds_count{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 1
            jvm_gc_pause_seconds_sum{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 0.05
            jvm_gc_concurrent_phase_time_seconds_count{action="end of concurrent GC pause",gc="G1 Concurrent GC"} 2
            jvm_gc_concurrent_phase_time_seconds_sum{action="end of concurrent GC pause",gc="G1 Concurrent GC"} 0.01
            kafka_stream_state_block_cache_usage{store_id="products",task_id="0_1",thread_id="t-1"} 1048576.0
            kafka_stream_state_block_cache_usage{store_id="category-rows",task_id="1_1",thread_id="t-1"} 2097152.0
            kafka_stream_state_block_cache_capacity{store_id="products",task_id="0_1",thread_id="t-1"} 6.7108864E7
            process_uptime_seconds 12.5
            """;

    private static final String AFTER = """
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 14
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.30
            jvm_gc_pause_seconds_count{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 1
            jvm_gc_pause_seconds_sum{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 0.05
            jvm_gc_concurrent_phase_time_seconds_count{action="end of concurrent GC pause",gc="G1 Concurrent GC"} 3
            jvm_gc_concurrent_phase_time_seconds_sum{action="end of concurrent GC pause",gc="G1 Concurrent GC"} 0.03
            kafka_stream_state_block_cache_data_hit_ratio{store_id="products",task_id="0_1"} 0.9
            kafka_stream_state_block_cache_data_hit_ratio{store_id="category-rows",task_id="1_1"} 0.7
            kafka_stream_state_block_cache_index_hit_ratio{store_id="products",task_id="0_1"} NaN
            kafka_stream_state_block_cache_filter_hit_ratio{store_id="products",task_id="0_1"} 1.0
            """;

    @Test
    void shouldReadNamesLabelsAndValuesWhenLinesHaveLabelsOrNot() {
        List<PrometheusText.Sample> samples = PrometheusText.parse(BEFORE);

        assertThat(samples).hasSize(10);
        assertThat(samples.get(9)).isEqualTo(new PrometheusText.Sample("process_uptime_seconds", "", 12.5));
        assertThat(samples.get(8).value()).isEqualTo(6.7108864E7);
        assertThat(PrometheusText.sum(samples, "jvm_gc_pause_seconds_count")).isEqualTo(11);
    }

    @Test
    void shouldGiveTheCollectionsBetweenTwoScrapesWhenBothHaveGcSeries() {
        MetricsScrape before = new MetricsScrape(PrometheusText.parse(BEFORE), null);
        MetricsScrape after = new MetricsScrape(PrometheusText.parse(AFTER), null);

        ServiceObservation.GcDelta gc = after.gcSince(before);

        assertThat(gc.pauses()).isEqualTo(4);
        assertThat(gc.pauseSeconds()).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(gc.concurrentPhases()).isEqualTo(1);
        assertThat(gc.concurrentSeconds()).isCloseTo(0.02, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldAverageTheHitRatiosOfTheStoresWhenTheServiceExposesThem() {
        ServiceObservation.BlockCacheReading cache = new MetricsScrape(PrometheusText.parse(AFTER), null)
                .blockCache();

        assertThat(cache.hitRatios()).containsOnlyKeys("data", "filter");
        assertThat(cache.hitRatios().get("data")).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(cache.hitRatio()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(cache.note()).isNull();
    }

    @Test
    void shouldGiveEachStoresDataLookupsInTheWindowWhenTheServiceCountsThem() {
        MetricsScrape before = new MetricsScrape(PrometheusText.parse("""
                catalog_block_cache_data_lookups_total{result="hit",store="product-view"} 1000.0
                catalog_block_cache_data_lookups_total{result="miss",store="product-view"} 50.0
                catalog_block_cache_data_lookups_total{result="hit",store="category-listings"} 7.0
                catalog_block_cache_data_lookups_total{result="miss",store="category-listings"} 3.0
                """), null);
        MetricsScrape after = new MetricsScrape(PrometheusText.parse("""
                catalog_block_cache_data_lookups_total{result="hit",store="product-view"} 1900.0
                catalog_block_cache_data_lookups_total{result="miss",store="product-view"} 150.0
                catalog_block_cache_data_lookups_total{result="hit",store="category-listings"} 7.0
                catalog_block_cache_data_lookups_total{result="miss",store="category-listings"} 3.0
                """), null);

        Map<String, ServiceObservation.DataLookups> lookups = after.blockCacheSince(before).dataLookups();

        assertThat(lookups.get("product-view")).isEqualTo(new ServiceObservation.DataLookups(900, 100, 0.9));
        assertThat(lookups.get("category-listings").hitRatio()).as("no lookup in the window").isNull();
        assertThat(new MetricsScrape(PrometheusText.parse(BEFORE), null).blockCacheSince(before).dataLookups())
                .as("a service that does not count them").isNull();
    }

    @Test
    void shouldGiveEachStoresSortedRunsAndIdleCompactionsInTheWindowWhenTheServiceCountsThem() {
        MetricsScrape before = new MetricsScrape(PrometheusText.parse("""
                catalog_store_sorted_runs{store="product-view"} 61.0
                catalog_store_sorted_runs{store="category-listings"} 12.0
                catalog_idle_compactions_total{store="product-view"} 12.0
                catalog_idle_compactions_total{store="category-listings"} 12.0
                """), null);
        MetricsScrape after = new MetricsScrape(PrometheusText.parse("""
                catalog_store_sorted_runs{store="product-view"} 12.0
                catalog_store_sorted_runs{store="category-listings"} 12.0
                catalog_idle_compactions_total{store="product-view"} 24.0
                catalog_idle_compactions_total{store="category-listings"} 12.0
                """), null);

        Map<String, ServiceObservation.StoreRuns> runs = after.storeRunsSince(before);

        assertThat(runs).containsOnlyKeys("product-view", "category-listings");
        assertThat(runs.get("product-view")).isEqualTo(new ServiceObservation.StoreRuns(61, 12, 12));
        assertThat(runs.get("category-listings")).isEqualTo(new ServiceObservation.StoreRuns(12, 12, 0));
        assertThat(new MetricsScrape(PrometheusText.parse(BEFORE), null).storeRunsSince(before))
                .as("a service that does not count them").isNull();
    }

    @Test
    void shouldReadALabelWhereverItStandsWhenLabelsAreRaw() {
        assertThat(MetricsScrape.label("result=\"hit\",store=\"product-view\"", "store")).isEqualTo("product-view");
        assertThat(MetricsScrape.label("store=\"a\",result=\"miss\"", "result")).isEqualTo("miss");
        assertThat(MetricsScrape.label("xstore=\"a\"", "store")).isNull();
        assertThat(MetricsScrape.label(",store=\"a\"", "store")).as("after a leading comma").isEqualTo("a");
    }

    @Test
    void shouldSaySoWhenNoHitRatioIsExposed() {
        ServiceObservation.BlockCacheReading cache = new MetricsScrape(PrometheusText.parse(BEFORE), null)
                .blockCache();

        assertThat(cache.hitRatio()).isNull();
        assertThat(cache.usageBytes()).as("the largest store reading of the shared cache").isEqualTo(2097152.0);
        assertThat(cache.capacityBytes()).isEqualTo(6.7108864E7);
        assertThat(cache.note()).contains("metrics.recording.level=DEBUG");
    }

    @Test
    void shouldTakeHitRatiosThatAreAllZeroAsNotRecordedWhenTheServiceRunsAtInfo() {
        String registeredNotRecorded = """
                kafka_stream_state_block_cache_data_hit_ratio{store_id="products",task_id="0_1"} 0.0
                kafka_stream_state_block_cache_index_hit_ratio{store_id="products",task_id="0_1"} 0.0
                kafka_stream_state_block_cache_filter_hit_ratio{store_id="products",task_id="0_1"} 0.0
                """;

        ServiceObservation.BlockCacheReading cache = new MetricsScrape(PrometheusText.parse(registeredNotRecorded),
                null).blockCache();

        assertThat(cache.hitRatio()).isNull();
        assertThat(cache.hitRatios()).isNull();
        assertThat(cache.note()).contains("exposed but not recorded");
    }
}
