package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.catalogviews.bench.load.LoadResult;

import java.util.List;

/**
 * {@code results.json}: the figures of every phase that ran (null: the phase did not run), every query run, and
 * what the report derives from them ({@code summary} … {@code errors}, null until {@link #withReport}).
 *
 * @param partial      true in {@code results-partial.json}, the checkpoint written while the run goes on
 * @param targets      the targets of issue 5, as every earlier run judged them
 * @param build        the commits of the service's jar and of the harness
 * @param issueTargets the targets of issues 14 and 15, the table summary.md leads with
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchResults(RunSettings settings, Machine machine, BrokerProcess broker, ServiceProcess service,
                           LoadFigures load, PostgresIngest postgresIngest, PostgresSetup postgres,
                           List<DeepPage> deepPages, FreshnessFigures freshness, ChurnFigures churn,
                           MemoryFigures memory, RestoreFigures restore, List<LoadResult> queries,
                           List<SummaryRow> summary, List<TargetCheck> targets, Long wrongAnswers, Long errors,
                           Boolean partial, BuildInfo build, List<IssueTarget> issueTargets) {

    /** These figures with what the report derives from them. */
    public BenchResults withReport(List<SummaryRow> summaryRows, List<TargetCheck> targetChecks,
                                   List<IssueTarget> issues) {
        long wrong = queries.stream().mapToLong(LoadResult::wrong).sum();
        long failed = queries.stream().mapToLong(LoadResult::errors).sum();
        return new BenchResults(settings, machine, broker, service, load, postgresIngest, postgres, deepPages,
                freshness, churn, memory, restore, queries, summaryRows, targetChecks, wrong, failed, null, build,
                issues);
    }

    /** These figures marked as a checkpoint of a run still going on. */
    public BenchResults asPartial() {
        return new BenchResults(settings, machine, broker, service, load, postgresIngest, postgres, deepPages,
                freshness, churn, memory, restore, queries, summary, targets, wrongAnswers, errors, true, build,
                issueTargets);
    }
}
