package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/**
 * What the service did during one measured window ({@code service} of a run), seen from outside: its threads' CPU
 * from {@code /proc/<pid>/task/*}, its garbage collections and its RocksDB block cache from {@code GET /metrics}.
 *
 * @param threadCpuCores CPU of the service's threads during the window, in cores, by thread group (jetty, kafka
 *                       streams, rocksdb, GC, JIT …; {@code ThreadNames}), largest first; null when the harness did
 *                       not start the service (no process to read)
 * @param gc             collections during the window, null when {@code /metrics} could not be read
 * @param blockCache     the block cache at the end of the window, null when {@code /metrics} could not be read
 * @param storeRuns      each view store's sorted runs at the edges of the window and its idle compactions in it
 *                       ({@code catalog_store_sorted_runs}, {@code catalog_idle_compactions_total}), null when the
 *                       service does not export them or {@code /metrics} could not be read
 * @param note           why a part is missing, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceObservation(Map<String, Double> threadCpuCores, GcDelta gc, BlockCacheReading blockCache,
                                 Map<String, StoreRuns> storeRuns, String note) {

    /**
     * One view store's sorted runs (all its partitions in the service) at the start and the end of a window, and
     * how many of its partitions were compacted to one run during it: a point read looks into each run.
     */
    public record StoreRuns(long atStart, long atEnd, long idleCompactions) {
    }

    /**
     * Garbage collections between two scrapes of {@code /metrics} (Micrometer's {@code jvm_gc_pause_seconds} and
     * {@code jvm_gc_concurrent_phase_time_seconds}, summed over collectors and causes).
     */
    public record GcDelta(long pauses, double pauseSeconds, long concurrentPhases, double concurrentSeconds) {
    }

    /**
     * The RocksDB block cache as {@code /metrics} shows it ({@code kafka_stream_state_block_cache_*}).
     *
     * @param hitRatio      mean of the data, index and filter hit ratios over the stores that report them, or null
     *                      when none is exposed ({@code note} says so)
     * @param hitRatios     the mean hit ratio of each kind that is exposed (data, index, filter)
     * @param usageBytes    the largest {@code block_cache_usage} of any store (one cache is shared), or null
     * @param capacityBytes the largest {@code block_cache_capacity}, or null
     * @param dataLookups   data-block lookups of each view store during the window, from the service's own counters
     *                      ({@code catalog_block_cache_data_lookups_total}, at any recording level), or null when the
     *                      service does not export them
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BlockCacheReading(Double hitRatio, Map<String, Double> hitRatios, Double usageBytes,
                                    Double capacityBytes, Map<String, DataLookups> dataLookups, String note) {
    }

    /**
     * Data-block lookups of one store during a window.
     *
     * @param hitRatio hits over lookups, or null when the store's reads looked up no data block (all from memtables)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record DataLookups(long hits, long misses, Double hitRatio) {

        public static DataLookups of(long hits, long misses) {
            long lookups = hits + misses;
            return new DataLookups(hits, misses, lookups == 0 ? null : (double) hits / lookups);
        }
    }
}
