package io.catalogviews.service.config;

import io.catalogviews.api.ApiSettings;
import io.catalogviews.views.streams.StreamsListingQueries;

import java.time.Duration;

/**
 * How much work one instance takes on for its clients (CONTRACT.md §4, "Bounded work"); each bound is an option of
 * {@code serve} with its default here.
 *
 * @param scanBudget          index entries one listing scan may examine (a category page, each product partition
 *                            of a whole-catalog page, the facets of a partition): {@code --scan-budget}
 * @param maxWaiters          concurrent {@code minVersion} waits: {@code --max-waiters}
 * @param maxInFlightForwards calls to other instances in flight at once: {@code --max-in-flight-forwards}
 * @param maxConnections      HTTP connections open at once: {@code --http-max-connections}
 * @param idleTimeout         how long an HTTP connection may make no progress: {@code --http-idle-timeout}
 * @param directAnswers       whether plain reads are answered directly on Jetty, ahead of Javalin's routes:
 *                            {@code --http-direct-answers} (not a bound, but the HTTP layer's one switch)
 */
public record RequestLimits(long scanBudget, int maxWaiters, int maxInFlightForwards, int maxConnections,
                            Duration idleTimeout, boolean directAnswers) {

    public RequestLimits {
        OptionChecks.inRange("--scan-budget", scanBudget, 100, 100_000_000);
        OptionChecks.inRange("--max-waiters", maxWaiters, 1, 1_000_000);
        OptionChecks.inRange("--max-in-flight-forwards", maxInFlightForwards, 1, 100_000);
        OptionChecks.inRange("--http-max-connections", maxConnections, 1, 100_000);
        OptionChecks.inRange("--http-idle-timeout (ms)", idleTimeout.toMillis(), 100, 3_600_000);
    }

    public static RequestLimits defaults() {
        return new RequestLimits(StreamsListingQueries.DEFAULT_SCAN_BUDGET, ApiSettings.DEFAULT_MAX_WAITERS,
                ApiSettings.DEFAULT_MAX_IN_FLIGHT_FORWARDS, ApiSettings.DEFAULT_MAX_CONNECTIONS,
                ApiSettings.DEFAULT_IDLE_TIMEOUT, true);
    }

    /** The HTTP layer's settings for {@code port}, with these bounds. */
    public ApiSettings apiSettings(int port) {
        return ApiSettings.defaults(port).withBounds(maxWaiters, maxInFlightForwards, maxConnections, idleTimeout)
                .withDirectAnswers(directAnswers);
    }
}
