package io.catalogviews.bench.load;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.catalogviews.bench.results.ServiceObservation;

import java.util.List;

/**
 * One measured load run.
 *
 * @param throughput                right answers per second (wrong answers and errors do not count)
 * @param meanBytes                 mean body size of the answers
 * @param serverCpuCores            CPU of the target's process during the window, in cores (2 = the whole machine)
 * @param clientCpuCores            CPU of the harness (load client and checks) during the window, in cores
 * @param otherCpuCores             CPU of everything else on the machine during the window (the broker, other
 *                                  programs): a measure of how undisturbed the run was
 * @param samples                   up to five wrong answers or errors, described
 * @param run                       which repetition of the same measurement this is (1 … {@code --runs})
 * @param parsedAnswers             answers of the window whose check took a parse (their bytes differed from the
 *                                  expected ones): 0 when every answer was recognised by its bytes
 * @param clientCpuMicrosPerRequest the harness's CPU per request of the window, in microseconds
 * @param service                   what the service's own counters and threads did during the window (null for the
 *                                  other targets, and for a deployment the harness did not start)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadResult(String target, String queryClass, int concurrency, double seconds, long ok, long wrong,
                         long errors, double throughput, double p50Ms, double p95Ms, double p99Ms, double maxMs,
                         double meanBytes, double serverCpuCores, double clientCpuCores, double otherCpuCores,
                         List<String> samples, int run, long parsedAnswers, double clientCpuMicrosPerRequest,
                         ServiceObservation service) {

    /** This run under another target name (a later phase's runs are named {@code <target>/<phase>}). */
    public LoadResult named(String name) {
        return new LoadResult(name, queryClass, concurrency, seconds, ok, wrong, errors, throughput, p50Ms, p95Ms,
                p99Ms, maxMs, meanBytes, serverCpuCores, clientCpuCores, otherCpuCores, samples, run, parsedAnswers,
                clientCpuMicrosPerRequest, service);
    }

    /** This run as repetition {@code number} of its measurement. */
    public LoadResult asRun(int number) {
        return new LoadResult(target, queryClass, concurrency, seconds, ok, wrong, errors, throughput, p50Ms, p95Ms,
                p99Ms, maxMs, meanBytes, serverCpuCores, clientCpuCores, otherCpuCores, samples, number,
                parsedAnswers, clientCpuMicrosPerRequest, service);
    }
}
