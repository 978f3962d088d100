package io.catalogviews.api;

import java.time.Duration;

/**
 * Settings of the HTTP layer.
 *
 * @param port            HTTP port (0 picks a free one)
 * @param forwardTimeout  how long a forwarded read may take before 504 {@code owner_timeout}
 * @param maxWaiters      concurrent {@code minVersion} waits before 503
 * @param maxRequestBytes largest request body accepted (413 beyond)
 * @param forwarderThreads threads completing forwarded calls
 * @param maxStaleLagRecords how far (changelog records) a standby may lag and still answer while the active
 *                        owner cannot (answers marked {@code X-Stale: true}). 1 by default: a caught-up standby
 *                        of an exactly-once changelog stays one record (the last commit marker) behind, and a
 *                        standby that is still restoring must not answer 404 for products it has not seen yet
 */
public record ApiSettings(int port, Duration forwardTimeout, int maxWaiters, long maxRequestBytes,
                          int forwarderThreads, long maxStaleLagRecords) {

    public static ApiSettings defaults(int port) {
        return new ApiSettings(port, Duration.ofSeconds(5), 10_000, 1024 * 1024, 2, 1);
    }
}
