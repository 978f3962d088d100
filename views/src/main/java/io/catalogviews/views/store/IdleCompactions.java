package io.catalogviews.views.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Compacts each view store partition into one sorted run once the instance's writes have stopped for a while, so
 * that reads after a load, a re-price or a rebuild look into one run instead of the five to eight that universal
 * compaction lets gather for the writes' sake (docs/design.md, "Memory").
 *
 * <p>Kafka Streams builds the stores, so this registry reaches them the way {@link RowsFirstRebuilds} does: put it
 * under {@link #CONFIG} in the properties the application is started with, and every {@link DerivedEntriesStore}
 * registers its partition when initialised and leaves when closed. One thread looks every second and, once no
 * partition of the instance has been written for the idle time, compacts the partitions written before, one at a
 * time. Its partitions' sorted runs are counted for {@code /metrics} whether or not it compacts. Thread-safe.
 */
public final class IdleCompactions implements AutoCloseable {

    /** The Streams configuration key whose value is this instance's registry (an object, not a string). */
    public static final String CONFIG = "catalog.views.idle.compactions";
    /** The Streams configuration key of the idle time in milliseconds (0: never compact), as a string or number. */
    public static final String IDLE_AFTER_MS_CONFIG = "catalog.views.compact.when.idle.ms";
    /**
     * Ten seconds: longer than the pauses between a producer's batches and a commit interval, so an instance being
     * loaded is not compacted between two bursts, and short enough that reads after a load soon meet one run.
     */
    public static final Duration DEFAULT_IDLE_AFTER = Duration.ofSeconds(10);
    /**
     * Whether a partition just compacted is read into its block cache when its store's tables fit there (true by
     * default); the blocks of the runs it replaced are dead, and the first reads after it would go to the table files.
     */
    public static final String WARM_AFTER_COMPACTION_CONFIG = "catalog.views.warm.after.compaction";
    /** A store is warmed when its tables take at most this share of its block cache: others need room too. */
    static final double WARM_WHEN_TABLES_TAKE_AT_MOST = 0.9;
    private static final Logger LOG = LoggerFactory.getLogger(IdleCompactions.class);
    private static final long CHECK_EVERY_MS = 1_000;

    private final Duration idleAfter;
    private final boolean warmAfterCompaction;
    private final Set<PartitionCompaction> partitions = ConcurrentHashMap.newKeySet();
    private final Map<String, LongAdder> compacted = new ConcurrentHashMap<>();
    private final ScheduledExecutorService checker;

    private IdleCompactions(Duration idleAfter, boolean warmAfterCompaction, boolean scheduled) {
        if (idleAfter.isNegative()) {
            throw new IllegalArgumentException("idle compaction: the idle time must not be negative, was " + idleAfter);
        }
        this.idleAfter = idleAfter;
        this.warmAfterCompaction = warmAfterCompaction;
        if (scheduled && !idleAfter.isZero()) {
            checker = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "idle-compaction");
                thread.setDaemon(true);
                thread.setPriority(Thread.MIN_PRIORITY);
                return thread;
            });
            checker.scheduleWithFixedDelay(this::compactIdleSafely, CHECK_EVERY_MS, CHECK_EVERY_MS,
                    TimeUnit.MILLISECONDS);
        } else {
            checker = null;
        }
    }

    /**
     * Compacts partitions idle for {@code idleAfter} on its own thread; zero only counts sorted runs. With
     * {@code warmAfterCompaction}, a compacted partition of a store whose tables fit its block cache is read into the
     * cache ({@link #WARM_AFTER_COMPACTION_CONFIG}).
     */
    public static IdleCompactions start(Duration idleAfter, boolean warmAfterCompaction) {
        return new IdleCompactions(idleAfter, warmAfterCompaction, true);
    }

    /** Compacts only when {@link #compactIdle} is called (tests). */
    static IdleCompactions unscheduled(Duration idleAfter, boolean warmAfterCompaction) {
        return new IdleCompactions(idleAfter, warmAfterCompaction, false);
    }

    /** Compacts only when {@link #compactIdle} is called, warming what fits (tests). */
    static IdleCompactions unscheduled(Duration idleAfter) {
        return unscheduled(idleAfter, true);
    }

    /**
     * Whether compacted partitions are read into the block cache, from {@link #WARM_AFTER_COMPACTION_CONFIG} in
     * {@code properties} (default true).
     *
     * @throws IllegalArgumentException naming the key when the value is neither true nor false
     */
    public static boolean warmAfterCompaction(Map<?, ?> properties) {
        Object value = properties.get(WARM_AFTER_COMPACTION_CONFIG);
        if (value == null) {
            return true;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException(WARM_AFTER_COMPACTION_CONFIG + " must be true or false, was '" + value
                + "'");
    }

    /**
     * The idle time configured under {@link #IDLE_AFTER_MS_CONFIG} in {@code properties}, or the default.
     * @throws IllegalArgumentException naming the key when the value is not a non-negative number of milliseconds
     */
    public static Duration idleAfter(Map<?, ?> properties) {
        Object value = properties.get(IDLE_AFTER_MS_CONFIG);
        if (value == null) {
            return DEFAULT_IDLE_AFTER;
        }
        long millis;
        try {
            millis = value instanceof Number number ? number.longValue() : Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(IDLE_AFTER_MS_CONFIG + " must be a number of milliseconds, was '"
                    + value + "'", e);
        }
        if (millis < 0) {
            throw new IllegalArgumentException(IDLE_AFTER_MS_CONFIG + " must be >= 0, was " + millis);
        }
        return Duration.ofMillis(millis);
    }

    /** The registry configured in {@code appConfigs}, or null when none is. */
    static IdleCompactions from(Map<String, Object> appConfigs) {
        return appConfigs.get(CONFIG) instanceof IdleCompactions compactions ? compactions : null;
    }

    void register(PartitionCompaction partition) {
        partitions.add(partition);
    }

    void unregister(PartitionCompaction partition) {
        partitions.remove(partition);
    }

    /** Sorted runs of the open partitions of {@code store} on this instance (active and standby), summed. */
    public long sortedRuns(String store) {
        long runs = 0;
        for (PartitionCompaction partition : partitions) {
            if (partition.store().equals(store)) {
                PartitionCompaction.Shape shape = partition.shape();
                runs += shape == null ? 0 : shape.sortedRuns();
            }
        }
        return runs;
    }

    /** Partitions of {@code store} compacted since this instance started. */
    public long compactions(String store) {
        LongAdder count = compacted.get(store);
        return count == null ? 0 : count.sum();
    }

    /**
     * When no partition of this instance has been written for the idle time, compacts those written since their
     * last look where it pays, one after the other. Instance-wide, not per partition: a partition that has finished
     * its share of a load while others still apply theirs would otherwise be compacted beside them, and those
     * compactions took the stream threads' cores (a load of 1 000 000 products 1.1–1.35× slower, docs/benchmarks.md
     * step 30). A write anywhere during a round ends it.
     */
    void compactIdle(long nowNanos) {
        if (idleAfter.isZero()) {
            return;
        }
        long idleNanos = idleAfter.toNanos();
        long startedNanos = System.nanoTime();
        List<PartitionCompaction> compactedNow = new ArrayList<>();
        for (PartitionCompaction partition : partitions) {
            // Judged now, not when the round started: a compaction before it may take seconds.
            long now = nowNanos + (System.nanoTime() - startedNanos);
            if (!idleEverywhere(now, idleNanos)) {
                return;
            }
            if (partition.idleSinceWritten(now, idleNanos)) {
                PartitionCompaction.Outcome outcome = partition.compactIfWorthIt();
                count(partition, outcome);
                if (outcome == PartitionCompaction.Outcome.COMPACTED && warmAfterCompaction) {
                    compactedNow.add(partition);
                }
            }
        }
        warmWhatFits(compactedNow);
    }

    /**
     * Reads the partitions compacted in a round into their block cache when the tables of their whole store fit
     * there: when they do not, reads pick which blocks stay, and reading a partition through would only evict blocks
     * they use. Judged once the round is over, as a load leaves every partition with runs that its compaction shrinks
     * (at 1 000 000 products the product view's 1.7 GB of runs became 1.0 GB: judged after each compaction, the first
     * four partitions were left cold). A partition written meanwhile is left to the reads. A store with a row cache
     * has its rows read into it whatever its size: they are what point reads ask for, and the row cache holds only
     * what is read by key.
     */
    private void warmWhatFits(List<PartitionCompaction> compacted) {
        Map<String, Boolean> fits = new HashMap<>();
        for (PartitionCompaction partition : compacted) {
            if (partition.writtenSinceCompaction()) {
                continue;
            }
            if (fits.computeIfAbsent(partition.store(), store -> fitsItsCache(partition))) {
                partition.warm();
            }
            if (partition.rowsCached()) {
                partition.warmRows();
            }
        }
    }

    /** Whether the tables of {@code partition}'s whole store take at most the warming share of its block cache. */
    private boolean fitsItsCache(PartitionCompaction partition) {
        long tableBytes = 0;
        for (PartitionCompaction p : partitions) {
            if (p.store().equals(partition.store())) {
                PartitionCompaction.Shape shape = p.shape();
                tableBytes += shape == null ? 0 : shape.largestRunBytes() + shape.otherRunsBytes();
            }
        }
        return tableBytes > 0 && tableBytes <= WARM_WHEN_TABLES_TAKE_AT_MOST * partition.blockCacheCapacity();
    }

    private boolean idleEverywhere(long nowNanos, long idleNanos) {
        for (PartitionCompaction partition : partitions) {
            if (nowNanos - partition.lastWriteNanos() < idleNanos) {
                return false;
            }
        }
        return true;
    }

    /** Flushes and compacts every open partition of {@code store} to one run, idle or not (tests). */
    void compactAllNow(String store) {
        for (PartitionCompaction partition : partitions) {
            if (partition.store().equals(store)) {
                count(partition, partition.compactNow());
            }
        }
    }

    private void count(PartitionCompaction partition, PartitionCompaction.Outcome outcome) {
        if (outcome == PartitionCompaction.Outcome.COMPACTED) {
            compacted.computeIfAbsent(partition.store(), s -> new LongAdder()).increment();
        }
    }

    /** Open partitions of {@code store} registered here. */
    long partitions(String store) {
        return partitions.stream().filter(p -> p.store().equals(store)).count();
    }

    private void compactIdleSafely() {
        try {
            compactIdle(System.nanoTime());
        } catch (RuntimeException e) {
            // Never let one failure end the schedule: the next writes make the partition due again.
            LOG.warn("Idle compaction failed; it goes on with the next partitions due", e);
        }
    }

    /** Stops looking; a compaction running stops when its store closes (the store's close cancels it). */
    @Override
    public void close() {
        if (checker != null) {
            checker.shutdownNow();
        }
    }
}
