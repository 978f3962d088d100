package io.catalogviews.bench.observe;

import io.catalogviews.bench.results.ServiceObservation;

/**
 * Watches the service under test during a window: its threads' CPU ({@link ThreadCpu}, when the harness knows its
 * process) and its garbage collections and block cache ({@link MetricsScrape}, from {@code GET /metrics}, which
 * every deployment answers). The two scrapes happen at the edges of the window; each costs the service a few
 * milliseconds.
 */
public final class ServiceObserver implements RunObserver {

    private final String url;
    private final long pid;
    private final ThreadNames names;

    /** @param pid the service's process, or -1 for a deployment the harness did not start */
    public ServiceObserver(String url, long pid, String applicationId) {
        this.url = url;
        this.pid = pid;
        this.names = new ThreadNames(applicationId);
    }

    @Override
    public Window begin() {
        MetricsScrape metricsBefore = MetricsScrape.of(url);
        ThreadCpu.Snapshot threadsBefore = pid > 0 ? ThreadCpu.of(pid) : null;
        return seconds -> {
            ThreadCpu.Snapshot threadsAfter = pid > 0 ? ThreadCpu.of(pid) : null;
            MetricsScrape metricsAfter = MetricsScrape.of(url);
            String note = metricsBefore.ok() ? metricsAfter.error() : metricsBefore.error();
            boolean metrics = metricsBefore.ok() && metricsAfter.ok();
            return new ServiceObservation(
                    threadsAfter == null ? null : ThreadCpu.coresByGroup(threadsBefore, threadsAfter, seconds, names),
                    metrics ? metricsAfter.gcSince(metricsBefore) : null,
                    metrics ? metricsAfter.blockCacheSince(metricsBefore) : null,
                    metrics ? metricsAfter.storeRunsSince(metricsBefore) : null, note);
        };
    }
}
