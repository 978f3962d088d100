package io.catalogviews.bench.phase;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.service.ChildJvm;
import io.catalogviews.bench.service.Materialization;
import io.catalogviews.cli.ProgressBar;

import java.io.IOException;
import java.time.Duration;

/**
 * Watches a service restarted on an empty state directory until it answers right, and times it from the start of
 * its process: HTTP up, {@code /health/ready} 200, {@code /v1/cluster} {@code caughtUp: true}, and right (the
 * consumer group has no lag and the categories and a sample of products equal the model, the load phase's check).
 * Polls every 100 ms; shows the restore's progress from the store lag {@code /v1/cluster} reports.
 */
final class RestoreWatch {

    private final ChildJvm service;
    private final CatalogModel model;
    private final Materialization views;
    private final int products;
    private final long changelogOffsets;

    RestoreWatch(ChildJvm service, CatalogModel model, Materialization views, int products, long changelogOffsets) {
        this.service = service;
        this.model = model;
        this.views = views;
        this.products = products;
        this.changelogOffsets = changelogOffsets;
    }

    /**
     * @param t0      {@code System.nanoTime()} just before the process started
     * @param timeout how long the service may take
     * @throws IllegalStateException when the service exits, or is not right within {@code timeout}
     */
    RestoreFigures.Timing await(long t0, Duration timeout) {
        String url = service.url();
        long deadline = t0 + timeout.toNanos();
        long httpUp = -1;
        long ready = -1;
        long clusterCaughtUp = -1;
        long right = -1;
        int notRight = 0;
        String firstProblem = null;
        String lastProblem = "no answer yet";
        long maxStoreLag = -1;
        ProgressBar bar = new ProgressBar(System.err, "restoring", changelogOffsets);
        byte[] readyHead = HttpConnection.get("/health/ready");
        while (right < 0) {
            if (System.nanoTime() > deadline) {
                bar.finish(0);
                throw new IllegalStateException("the restored service did not catch up within "
                        + Duration.ofNanos(deadline - t0) + ": " + lastProblem + "; log " + service.tail());
            }
            if (!service.isAlive()) {
                throw new IllegalStateException("the restored service exited; log:\n" + service.tail());
            }
            if (ready < 0) {
                try (HttpConnection c = HttpConnection.to(url, 2_000)) {
                    int status = c.exchange(readyHead, null).status();
                    long now = System.nanoTime();
                    httpUp = httpUp < 0 ? now : httpUp;
                    if (status == 200) {
                        ready = now;
                    }
                    lastProblem = "GET /health/ready answered " + status;
                } catch (IOException e) {
                    lastProblem = "not listening yet";
                }
            }
            if (httpUp >= 0) {
                Materialization.ClusterView cv = Materialization.cluster(url);
                if (cv != null && cv.storeLag() >= 0) {
                    maxStoreLag = Math.max(maxStoreLag, cv.storeLag());
                    bar.update(Math.max(0, changelogOffsets - cv.storeLag()));
                }
                if (cv != null && cv.caughtUp()) {
                    long now = System.nanoTime();
                    clusterCaughtUp = clusterCaughtUp < 0 ? now : clusterCaughtUp;
                    Materialization.Lag lag = views.lag();
                    String problem = lag.total() == 0 ? Materialization.httpProblem(url, model) : "lag " + lag;
                    if (problem == null) {
                        right = System.nanoTime();
                    } else {
                        notRight++;
                        firstProblem = firstProblem == null ? problem : firstProblem;
                        lastProblem = problem;
                    }
                } else if (cv != null) {
                    lastProblem = "GET /v1/cluster: status " + cv.status() + ", caughtUp false, store lag "
                            + cv.storeLag();
                }
            }
            if (right < 0) {
                ChildJvm.sleep(100);
            }
        }
        bar.finish(changelogOffsets);
        if (ready < 0) {
            ready = right; // answers were right before the readiness poll saw 200 (it is not asked after that)
        }
        double readySeconds = (ready - t0) / 1e9;
        double rightSeconds = (right - t0) / 1e9;
        return new RestoreFigures.Timing((httpUp - t0) / 1e9, readySeconds, (clusterCaughtUp - t0) / 1e9,
                rightSeconds, (right - httpUp) / 1e9, products / rightSeconds, rightSeconds * 100_000 / products,
                readySeconds * 100_000 / products, changelogOffsets / readySeconds, maxStoreLag, notRight,
                firstProblem, RestoreFigures.Timing.NOTE);
    }
}
