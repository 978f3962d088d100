package io.catalogviews.bench.results;

import io.catalogviews.bench.BenchSettings;

import java.util.List;

/** The settings of a run as {@code results.json} records them ({@code settings}). */
public record RunSettings(String profile, int products, long updates, double warmupSeconds, double durationSeconds,
                          List<Integer> concurrencies, List<String> classes, boolean externalKafka,
                          boolean externalService, int partitions, long rocksDbMemoryMb, boolean postgres,
                          long churnUpdates, double freshnessRate, long freshnessSeconds, boolean restore,
                          long seed, int runs, double freshnessReadRate, double jitWarmupSeconds,
                          List<Integer> postgresPools, double freshnessWarmupSeconds) {

    public static RunSettings of(BenchSettings s) {
        return new RunSettings(s.quick() ? "quick" : "full", s.products(), s.updates(),
                s.warmup().toMillis() / 1000.0, s.duration().toMillis() / 1000.0, s.concurrencies(),
                s.classes().stream().map(c -> c.key).toList(), s.bootstrapServers() != null,
                s.serviceUrl() != null, s.partitions(), s.rocksDbMemoryMb(), s.postgres(), s.churnUpdates(),
                s.freshnessRate(), s.freshnessDuration().toSeconds(), s.restore(), s.seed(), s.runs(),
                s.freshnessReadRate(), s.jitWarmup().toMillis() / 1000.0, s.postgresPools(),
                s.freshnessWarmup().toMillis() / 1000.0);
    }
}
