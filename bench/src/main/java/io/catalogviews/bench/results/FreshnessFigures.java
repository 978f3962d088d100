package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * The freshness phase ({@code freshness}): changes published at {@code rate} per second while the read mix runs;
 * how long until the product view, and a category page, show each probed change. The first keys
 * ({@code view} … {@code maxMs}) are the product view's, as in every earlier run (medians over the runs, counts
 * summed); {@code productView} and {@code categoryPages} give each view with its range, {@code each} every run.
 *
 * @param measuredFrom the moment freshness is counted from (the broker's acknowledgement since 2026-12-02; the send
 *                     call before)
 * @param readLoad     the read mix during the runs, or null when none ran ({@code --freshness-read-rate 0})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FreshnessFigures(String view, double rate, double achievedRate, long events, long probes, long timeouts,
                               long errors, double p50Ms, double p95Ms, double p99Ms, double maxMs,
                               String measuredFrom, Integer runs, ViewFreshness productView,
                               ViewFreshness categoryPages, ReadLoadFigures readLoad, List<Run> each) {

    public static final String FROM_ACK = "the broker's acknowledgement of the change";

    /** One run of the phase. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Run(int run, double achievedRate, long events, ViewFreshness productView,
                      ViewFreshness categoryPages, ReadLoadFigures readLoad) {
    }

    /** The figures of the phase's runs. */
    public static FreshnessFigures of(double rate, List<Run> runs) {
        ViewFreshness product = ViewFreshness.over(runs.stream().map(Run::productView).toList());
        ViewFreshness category = runs.get(0).categoryPages() == null ? null
                : ViewFreshness.over(runs.stream().map(Run::categoryPages).toList());
        ReadLoadFigures reads = runs.get(0).readLoad() == null ? null
                : ReadLoadFigures.over(runs.stream().map(Run::readLoad).toList());
        return new FreshnessFigures(product.view(), rate,
                Stats.median(runs.stream().map(Run::achievedRate).toList()),
                runs.stream().mapToLong(Run::events).sum(), product.probes(), product.timeouts(), product.errors(),
                product.p50Ms(), product.p95Ms(), product.p99Ms(), product.maxMs(), FROM_ACK, runs.size(), product,
                category, reads, runs);
    }
}
