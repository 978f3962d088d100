package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * The churn phase ({@code churn}): more changes, then the index-heavy classes measured again.
 *
 * @param materialized the changes in {@code --runs} parts, each timed (null in runs before 2026-12-02)
 * @param changelog    what the changes wrote to the changelog topics (null when it could not be read)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChurnFigures(long changes, double materializeSeconds, double materializedPerSecond,
                           List<Row> classes, MaterializedRuns materialized, ChangelogWrites changelog) {

    public ChurnFigures(long changes, double materializeSeconds, double materializedPerSecond, List<Row> classes) {
        this(changes, materializeSeconds, materializedPerSecond, classes, null, null);
    }

    /**
     * One query class before and after the churn, at the headline concurrency. {@code before} and {@code ratio}
     * are written as null when the class was not measured before; the ceiling's figures are left out without a
     * ceiling, and the fractions also when either throughput before is missing.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(@JsonProperty("class") String queryClass,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double before, double after,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double ratio, Double ceilingAfter,
                      Double ceilingBefore, Double fractionBefore, Double fractionAfter,
                      Double ratioOfCeilingFractions) {

        /**
         * @param before        throughput before the churn, or null
         * @param ceilingAfter  the ceiling's throughput after it, or null without a ceiling
         * @param ceilingBefore the ceiling's throughput before it, or null
         */
        public static Row of(String queryClass, Double before, double after, Double ceilingAfter,
                             Double ceilingBefore) {
            Double ratio = before == null ? null : after / before;
            if (ceilingAfter == null || ceilingBefore == null || before == null) {
                return new Row(queryClass, before, after, ratio, ceilingAfter, null, null, null, null);
            }
            double fractionBefore = before / ceilingBefore;
            double fractionAfter = after / ceilingAfter;
            return new Row(queryClass, before, after, ratio, ceilingAfter, ceilingBefore, fractionBefore,
                    fractionAfter, fractionAfter / fractionBefore);
        }
    }
}
