package io.catalogviews.bench.load;

import java.util.List;

/**
 * One measured load run.
 *
 * @param throughput     right answers per second (wrong answers and errors do not count)
 * @param meanBytes      mean body size of the answers
 * @param serverCpuCores CPU of the target's process during the window, in cores (2 = the whole machine)
 * @param clientCpuCores CPU of the harness (load client and checks) during the window, in cores
 * @param otherCpuCores  CPU of everything else on the machine during the window (the broker, other programs): a
 *                       measure of how undisturbed the run was
 * @param samples        up to five wrong answers or errors, described
 */
public record LoadResult(String target, String queryClass, int concurrency, double seconds, long ok, long wrong,
                         long errors, double throughput, double p50Ms, double p95Ms, double p99Ms, double maxMs,
                         double meanBytes, double serverCpuCores, double clientCpuCores, double otherCpuCores,
                         List<String> samples) {
}
