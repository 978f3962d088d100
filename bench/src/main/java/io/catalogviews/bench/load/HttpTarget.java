package io.catalogviews.bench.load;

import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.observe.RunObserver;
import io.catalogviews.bench.query.Query;

import java.io.IOException;

/** An HTTP server speaking the contract's routes (or the ceiling), loaded through keep-alive connections. */
public final class HttpTarget implements Target {

    private final String name;
    private final String baseUrl;
    private final long[] pids;
    private final RunObserver observer;

    public HttpTarget(String name, String baseUrl, long... pids) {
        this(name, baseUrl, RunObserver.NONE, pids);
    }

    private HttpTarget(String name, String baseUrl, RunObserver observer, long... pids) {
        this.name = name;
        this.baseUrl = baseUrl;
        this.observer = observer;
        this.pids = pids.clone();
    }

    /** This target, watched by {@code observer} during every measured window. */
    public HttpTarget observedBy(RunObserver observer) {
        return new HttpTarget(name, baseUrl, observer, pids);
    }

    @Override
    public RunObserver observer() {
        return observer;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long[] pids() {
        return pids.clone();
    }

    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public Client open(Checks checks) {
        HttpConnection connection = HttpConnection.to(baseUrl, 30_000);
        return new Client() {
            @Override
            public Outcome call(Query query) {
                HttpConnection.Response r;
                try {
                    r = connection.exchange(query.head(), query.body());
                } catch (IOException | RuntimeException e) {
                    connection.close();
                    return new Outcome(Kind.ERROR, 0, e.getClass().getSimpleName() + ": " + e.getMessage());
                }
                return checks.http(query, r);
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }
}
