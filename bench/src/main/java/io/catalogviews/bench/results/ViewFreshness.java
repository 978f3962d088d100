package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * Freshness of one view: publish → visible, from the broker's acknowledgement of the change to the answer that shows
 * it. Over several runs: counts summed, percentiles the median of the runs' with the p99's range and the largest
 * maximum.
 *
 * @param probes         changes probed
 * @param timeouts       probes that did not see their change within 10 s
 * @param superseded     probes given up because a later change of the same product replaced the one probed (its
 *                       listing moved again); not counted in the percentiles
 * @param pollIntervalMs for views probed by polling: the pause between polls (the resolution of the figure); null
 *                       for the product view, which waits for the version on the server ({@code minVersion})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ViewFreshness(String view, long probes, long timeouts, long superseded, long errors, double p50Ms,
                            double p95Ms, double p99Ms, double maxMs, double p99MsMin, double p99MsMax,
                            double maxMsMax, Double pollIntervalMs) {

    /** One run's figures. */
    public static ViewFreshness of(String view, long probes, long timeouts, long superseded, long errors,
                                   double p50Ms, double p95Ms, double p99Ms, double maxMs, Double pollIntervalMs) {
        return new ViewFreshness(view, probes, timeouts, superseded, errors, p50Ms, p95Ms, p99Ms, maxMs, p99Ms,
                p99Ms, maxMs, pollIntervalMs);
    }

    /** Several runs of the same view as one figure. */
    public static ViewFreshness over(List<ViewFreshness> runs) {
        ViewFreshness first = runs.get(0);
        List<Double> p99 = runs.stream().map(ViewFreshness::p99Ms).toList();
        return new ViewFreshness(first.view(), runs.stream().mapToLong(ViewFreshness::probes).sum(),
                runs.stream().mapToLong(ViewFreshness::timeouts).sum(),
                runs.stream().mapToLong(ViewFreshness::superseded).sum(),
                runs.stream().mapToLong(ViewFreshness::errors).sum(),
                Stats.median(runs.stream().map(ViewFreshness::p50Ms).toList()),
                Stats.median(runs.stream().map(ViewFreshness::p95Ms).toList()), Stats.median(p99),
                Stats.median(runs.stream().map(ViewFreshness::maxMs).toList()), Stats.min(p99), Stats.max(p99),
                Stats.max(runs.stream().map(ViewFreshness::maxMsMax).toList()), first.pollIntervalMs());
    }
}
