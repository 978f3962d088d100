package io.catalogviews.bench;

import io.catalogviews.bench.query.QueryClass;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything one benchmark run is told, resolved (profile defaults applied).
 *
 * @param bootstrapServers a running Kafka, or null for a broker the harness starts (a child JVM)
 * @param serviceUrl       a running deployment to load and query, or null for a service the harness starts
 * @param serviceClassPath class path of the service JVM (the service's executable jar)
 * @param harnessClassPath class path of the ceiling and PostgreSQL HTTP servers (the harness's own: the service's
 *                         jar does not hold them)
 * @param serviceEnvironment variables set in the environment of the service JVM and of the ceiling and PostgreSQL HTTP
 *                         servers, over the harness's own (an empty value removes the variable)
 * @param concurrencies    load threads (connections) of the query runs; the first is the headline one
 * @param jitWarmup        how long each target is loaded, over all query classes, before its first measured run
 *                         (every JVM involved is still compiling its hot paths when it has just started)
 * @param restore          at the end, stop the service, delete its state directory, start it again and time
 *                         the restore from its changelogs (only for a service the harness started)
 * @param postgresPools    the pool sizes PostgreSQL is measured with before its queries (the best is kept; one
 *                         size: that size, unmeasured)
 * @param runs             how many times each measured figure is taken (query runs, freshness, materialization):
 *                         reported as median and [min, max]
 * @param freshnessReadRate requests per second of the read mix running during the freshness phase (0: none)
 * @param freshnessWarmup  how long changes (and the read mix) run unmeasured before the first freshness run: a
 *                         service whose load held no changes has not compiled its change path yet
 */
public record BenchSettings(boolean quick, int products, long updates, Duration warmup, Duration duration,
                            List<Integer> concurrencies, List<QueryClass> classes, String bootstrapServers,
                            String serviceUrl, String applicationId, String inputTopic, int partitions,
                            String serviceClassPath, String harnessClassPath, List<String> serviceJvmOptions,
                            Map<String, String> serviceEnvironment,
                            long rocksDbMemoryMb, boolean postgres, List<Integer> postgresPools, boolean ceiling,
                            long churnUpdates, double freshnessRate, Duration freshnessDuration, Path outputDir,
                            long seed, boolean keepData, boolean passThrough, boolean restore, Duration jitWarmup,
                            int runs, double freshnessReadRate, List<String> brokerJvmOptions,
                            Duration freshnessWarmup) {

    /** PostgreSQL's shared_buffers: the service's RocksDB bound, so that both peers get the same cache. */
    public long postgresSharedBuffersMb() {
        return rocksDbMemoryMb;
    }

    public int headlineConcurrency() {
        return concurrencies.get(0);
    }
}
