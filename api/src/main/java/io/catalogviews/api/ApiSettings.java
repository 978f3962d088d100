package io.catalogviews.api;

import java.time.Duration;

/**
 * Settings of the HTTP layer.
 *
 * @param port                HTTP port (0 picks a free one)
 * @param forwardTimeout      how long a forwarded read may take before 504 {@code owner_timeout}
 * @param maxWaiters          concurrent {@code minVersion} waits before 503
 * @param maxRequestBytes     largest request body accepted (413 beyond)
 * @param forwarderThreads    threads completing forwarded calls
 * @param maxStaleLagRecords  how far (changelog records) a standby may lag and still answer while the active
 *                            owner cannot (answers marked {@code X-Stale: true}). 1 by default: a caught-up standby
 *                            of an exactly-once changelog stays one record (the last commit marker) behind, and a
 *                            standby that is still restoring must not answer 404 for products it has not seen yet
 * @param maxInFlightForwards calls to other instances in flight at once (forwards, scatter-gather parts, standby
 *                            reads) before a read is refused with 503
 * @param maxConnections      HTTP connections open at once; further ones wait to be accepted. Jetty gets more
 *                            threads than this ({@link #httpThreads()}), so that clients that do not read their
 *                            answers, each holding at most the one thread writing to it, never hold them all
 * @param idleTimeout         how long a connection may make no progress (a client that neither sends nor reads)
 *                            before it is closed, which frees a thread blocked writing to it
 * @param directAnswers       whether plain reads are answered directly on Jetty, ahead of Javalin's routes
 *                            ({@link io.catalogviews.api.http.DirectAnswers}): kept pages and facets on the selector
 *                            thread, products on a pool thread; off, every request takes the routes
 */
public record ApiSettings(int port, Duration forwardTimeout, int maxWaiters, long maxRequestBytes,
                          int forwarderThreads, long maxStaleLagRecords, int maxInFlightForwards, int maxConnections,
                          Duration idleTimeout, boolean directAnswers) {

    public static final int DEFAULT_MAX_WAITERS = 10_000;
    public static final int DEFAULT_MAX_IN_FLIGHT_FORWARDS = 512;
    public static final int DEFAULT_MAX_CONNECTIONS = 1_000;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** Threads Jetty needs besides one per connection: acceptor, selectors, reserved threads, margin. */
    static final int SERVER_THREADS = 48;

    public ApiSettings {
        if (maxWaiters < 1 || maxInFlightForwards < 1 || maxConnections < 1) {
            throw new IllegalArgumentException("waiters, forwards in flight and connections must each be at least 1");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the idle timeout must be positive, not " + idleTimeout);
        }
    }

    public static ApiSettings defaults(int port) {
        return new ApiSettings(port, Duration.ofSeconds(5), DEFAULT_MAX_WAITERS, 1024 * 1024, 2, 1,
                DEFAULT_MAX_IN_FLIGHT_FORWARDS, DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT, true);
    }

    /** The same settings with these bounds on work in flight. */
    public ApiSettings withBounds(int waiters, int inFlightForwards, int connections, Duration idle) {
        return new ApiSettings(port, forwardTimeout, waiters, maxRequestBytes, forwarderThreads, maxStaleLagRecords,
                inFlightForwards, connections, idle, directAnswers);
    }

    /** The same settings with plain reads answered directly, ahead of the routes, or not. */
    public ApiSettings withDirectAnswers(boolean on) {
        return new ApiSettings(port, forwardTimeout, maxWaiters, maxRequestBytes, forwarderThreads,
                maxStaleLagRecords, maxInFlightForwards, maxConnections, idleTimeout, on);
    }

    /** Jetty's thread pool: one per connection and the server's own. */
    public int httpThreads() {
        return maxConnections + SERVER_THREADS;
    }
}
