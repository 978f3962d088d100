package io.catalogviews.bench.report;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.results.PostgresSetup;
import io.catalogviews.bench.results.ServiceObservation;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The summary's sections on what the targets did inside: the service's threads, GC and block cache during its
 * query runs, and how PostgreSQL was set up (version, tuning measured, facet strategy, plans).
 */
final class Observations {

    private static final int GROUPS_SHOWN = 6;

    private Observations() {
    }

    static void service(StringBuilder md, List<LoadResult> runs, BenchSettings s) {
        List<LoadResult> observed = runs.stream().filter(r -> r.target().equals(Report.SERVICE)
                && r.concurrency() == s.headlineConcurrency() && r.service() != null).toList();
        if (observed.isEmpty()) {
            return;
        }
        md.append("## Inside the service during its query runs (c=").append(s.headlineConcurrency()).append(")\n\n")
                .append("| class | run | CPU by thread group (cores) | GC pauses (count, ms) | GC concurrent (ms) | "
                        + "block cache hit ratio | block cache used / capacity MB | sorted runs |\n")
                .append("|---|---:|---|---:|---:|---:|---:|---|\n");
        String note = null;
        for (LoadResult r : observed) {
            ServiceObservation o = r.service();
            ServiceObservation.GcDelta gc = o.gc();
            ServiceObservation.BlockCacheReading cache = o.blockCache();
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s |%n", r.queryClass(),
                    r.run(),
                    groups(o.threadCpuCores()),
                    gc == null ? "–" : String.format(Locale.ROOT, "%d, %.1f", gc.pauses(), gc.pauseSeconds() * 1000),
                    gc == null ? "–" : String.format(Locale.ROOT, "%.1f", gc.concurrentSeconds() * 1000),
                    hitRatios(cache, r.ok() + r.wrong() + r.errors()),
                    cache == null || cache.usageBytes() == null ? "–" : String.format(Locale.ROOT, "%.0f / %s",
                            cache.usageBytes() / (1 << 20), cache.capacityBytes() == null ? "?"
                                    : String.format(Locale.ROOT, "%.0f", cache.capacityBytes() / (1 << 20))),
                    storeRuns(o.storeRuns())));
            // Kafka Streams' missing ratios are no news when the service counts its own lookups.
            note = note != null ? note : o.note() != null ? o.note()
                    : cache == null || cache.dataLookups() != null ? null : cache.note();
        }
        md.append("\nThread groups from `/proc/<pid>/task/*` (names cut to 15 bytes: `kafka-streams` holds the stream "
                + "and state-updater threads); GC and block cache from the service's `GET /metrics` at the edges of "
                + "each window (hit ratios: data blocks of each view store found in the cache, "
                + "`catalog_block_cache_data_lookups_total`); sorted runs of each view store at the window's start "
                + "and end, and its partitions compacted to one run in it (`catalog_store_sorted_runs`, "
                + "`catalog_idle_compactions_total`): a point read looks into every run.");
        if (note != null) {
            md.append(" Block cache: ").append(note).append('.');
        }
        md.append("\n\n");
    }

    /**
     * Each view store's data-block hit ratio in the window with its misses per request, from the service's own
     * counters; else the Kafka Streams ratios (DEBUG recording level only).
     */
    private static String hitRatios(ServiceObservation.BlockCacheReading cache, long requests) {
        if (cache != null && cache.dataLookups() != null) {
            String stores = cache.dataLookups().entrySet().stream().filter(e -> e.getValue().hitRatio() != null)
                    .map(e -> String.format(Locale.ROOT, "%s %.3f (%.3f misses/request)", e.getKey(),
                            e.getValue().hitRatio(), (double) e.getValue().misses() / Math.max(1, requests)))
                    .collect(Collectors.joining(", "));
            if (!stores.isEmpty()) {
                return stores;
            }
        }
        if (cache == null || cache.hitRatio() == null) {
            return "–";
        }
        return cache.hitRatios().entrySet().stream()
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.3f", e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String storeRuns(Map<String, ServiceObservation.StoreRuns> runs) {
        if (runs == null || runs.isEmpty()) {
            return "–";
        }
        return runs.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> {
            ServiceObservation.StoreRuns r = e.getValue();
            String runsText = r.atStart() == r.atEnd() ? Long.toString(r.atEnd()) : r.atStart() + " → " + r.atEnd();
            return e.getKey() + " " + runsText + (r.idleCompactions() == 0 ? ""
                    : " (" + r.idleCompactions() + " compacted)");
        }).collect(Collectors.joining(", "));
    }

    private static String groups(Map<String, Double> cores) {
        if (cores == null || cores.isEmpty()) {
            return "–";
        }
        return cores.entrySet().stream().limit(GROUPS_SHOWN)
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.2f", e.getValue()))
                .collect(Collectors.joining(", "));
    }

    static void postgres(StringBuilder md, PostgresSetup pg) {
        if (pg == null || pg.version() == null) {
            return;
        }
        md.append("## PostgreSQL set-up\n\n").append(pg.version()).append(". Settings: ").append(pg.settings())
                .append(".\n\nFacets: ").append(pg.facetStrategy()).append(".\n\n");
        PostgresSetup.Tuning t = pg.tuning();
        if (t != null) {
            md.append(String.format(Locale.ROOT, "Tuned by measurement (%s; %.1f s a trial): pool of **%d** "
                    + "sessions; plan_cache_mode %s.%n%n", t.note(), t.secondsPerTrial(), t.pool(),
                    t.planModes().isEmpty() ? "auto" : t.planModes()));
            md.append("| setting | class | target | right/s of each trial | median |\n|---|---|---|---|---:|\n");
            for (PostgresSetup.Trial trial : t.poolTrials()) {
                trial(md, trial);
            }
            for (PostgresSetup.Trial trial : t.planTrials()) {
                trial(md, trial);
            }
            md.append('\n');
        }
        if (pg.explain() != null) {
            md.append("`EXPLAIN (ANALYZE, BUFFERS)` of one statement of each class, after five executions as a "
                    + "prepared statement in its plan_cache_mode: `postgres-explain.txt`.\n\n");
        }
    }

    private static void trial(StringBuilder md, PostgresSetup.Trial trial) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %,.0f |%n", trial.setting(), trial.queryClass(),
                trial.target(), trial.throughputs().stream().map(v -> String.format(Locale.ROOT, "%,.0f", v))
                        .collect(Collectors.joining(", ")), trial.median()));
    }
}
