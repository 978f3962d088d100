package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One query class at one concurrency ({@code summary}): the service beside the peers that ran (null: that peer
 * did not run).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SummaryRow(@JsonProperty("class") String queryClass, int concurrency, double throughput,
                         double p50Ms, double p95Ms, double p99Ms, double maxMs, double bytes, long wrong,
                         long errors, double serviceCpuCores, double clientCpuCores, double otherCpuCores,
                         @JsonUnwrapped Ceiling ceiling, @JsonUnwrapped PostgresHttp postgresHttp,
                         @JsonUnwrapped PostgresJdbc postgresJdbc) {

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
