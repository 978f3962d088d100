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
 */
public record ApiSettings(int port, Duration forwardTimeout, int maxWaiters, long maxRequestBytes,
                          int forwarderThreads) {

    public static ApiSettings defaults(int port) {
        return new ApiSettings(port, Duration.ofSeconds(5), 10_000, 1024 * 1024, 2);
    }
}
