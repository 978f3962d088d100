package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One query class at one concurrency ({@code summary}): the service beside the peers that ran (null: that peer
 * did not run). With {@code --runs} above 1 every figure is the median of the runs (a ratio: the median of the
 * ratios of runs measured back to back) and {@code spread} gives the ranges.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SummaryRow(@JsonProperty("class") String queryClass, int concurrency, double throughput,
                         double p50Ms, double p95Ms, double p99Ms, double maxMs, double bytes, long wrong,
                         long errors, double serviceCpuCores, double clientCpuCores, double otherCpuCores,
                         @JsonUnwrapped Ceiling ceiling, @JsonUnwrapped PostgresHttp postgresHttp,
                         @JsonUnwrapped PostgresJdbc postgresJdbc, Spread spread) {

    /**
     * [min, max] of the figures over the runs ({@code runs} of them), the largest latency of any run, and what
     * the load client spent per request on each target (median of the runs), so that a client that took more
     * from one target than from another can be seen.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Spread(int runs, double throughputMin, double throughputMax, double p99MsMin, double p99MsMax,
                         double maxMsMax, Double fractionOfCeilingMin, Double fractionOfCeilingMax,
                         Double ratioToPostgresHttpMin, Double ratioToPostgresHttpMax, Double ratioToPostgresJdbcMin,
                         Double ratioToPostgresJdbcMax, double clientCpuMicrosPerRequest,
                         Double ceilingClientCpuMicrosPerRequest, Double postgresHttpClientCpuMicrosPerRequest,
                         Double postgresJdbcClientCpuMicrosPerRequest) {
    }

    /** The HTTP ceiling for the same answer size. */
    public record Ceiling(double ceiling, double fractionOfCeiling) {
    }

    /** PostgreSQL behind the same kind of HTTP server. */
    public record PostgresHttp(double postgresHttp, double postgresHttpP99Ms, double ratioToPostgresHttp,
                               long postgresHttpWrong) {
    }

    /** PostgreSQL through JDBC. */
    public record PostgresJdbc(double postgresJdbc, double postgresJdbcP99Ms, double ratioToPostgresJdbc,
                               long postgresJdbcWrong) {
    }
}
