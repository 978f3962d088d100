package io.catalogviews.views.streams;

import org.rocksdb.HistogramType;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;

import java.util.EnumSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * How often the block cache held the data block a read of a store needed, counted by RocksDB for every store of a
 * name in this JVM (all its partitions, active and standby; every read RocksDB makes through the cache: the stream
 * threads', the interactive queries'). Without it the cache is a black box: Kafka Streams records hit ratios only at
 * {@code metrics.recording.level=DEBUG}, which also times every store operation on the Java side.
 *
 * <p>One RocksDB {@link Statistics} per store name, shared by that name's databases and never closed: Kafka Streams
 * instantiates the config setter per store and closes only its own handle of the statistics (a second reference to
 * the same native object), so the counts outlive rebalances and are read without racing a store's close. Every
 * histogram is switched off, which also switches off their timers (RocksDB reads the clock only for an enabled
 * histogram): what is left is a per-core counter add per event, the level the Java binding cannot name
 * ({@link StatsLevel} stops at {@link StatsLevel#EXCEPT_DETAILED_TIMERS}, which times every read and write).
 */
public final class BlockCacheCounters {

    private static final ConcurrentMap<String, Statistics> BY_STORE = new ConcurrentHashMap<>();

    private BlockCacheCounters() {
    }

    /** The statistics every database of {@code storeName} records into (created on the first store's open). */
    static Statistics forStore(String storeName) {
        return BY_STORE.computeIfAbsent(storeName, name -> {
            Statistics statistics = new Statistics(
                    EnumSet.complementOf(EnumSet.of(HistogramType.HISTOGRAM_ENUM_MAX)));
            statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
            return statistics;
        });
    }

    /** Data-block lookups of {@code storeName}'s reads that the block cache answered since the first store's open. */
    public static long dataHits(String storeName) {
        return count(storeName, TickerType.BLOCK_CACHE_DATA_HIT);
    }

    /** Data-block lookups of {@code storeName}'s reads that went to the table files (0 before any store opened). */
    public static long dataMisses(String storeName) {
        return count(storeName, TickerType.BLOCK_CACHE_DATA_MISS);
    }

    private static long count(String storeName, TickerType ticker) {
        Statistics statistics = BY_STORE.get(storeName);
        return statistics == null ? 0 : statistics.getTickerCount(ticker);
    }
}
