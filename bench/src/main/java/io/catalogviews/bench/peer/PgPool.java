package io.catalogviews.bench.peer;

import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/**
 * A pool of PostgreSQL sessions shared by many threads (Jetty's, or the load client's), of a size that can change
 * between runs: at most {@code size} statements run at once, the other threads wait, as behind an application
 * server's pool. On 2 cores a few busy backends beat many ({@code PostgresTuning} measures 2, 4 and 8). Also carries
 * the plan-cache modes the sessions run with.
 */
public final class PgPool implements AutoCloseable {

    /** Work on one session. */
    public interface Work<T> {
        T run(PgSession session, PgPlans plans) throws SQLException;
    }

    private final String jdbcUrl;
    private final Semaphore permits = new Semaphore(0);
    private final ConcurrentLinkedQueue<PgSession> idle = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<PgSession> all = new ConcurrentLinkedQueue<>();
    private int size;
    private volatile PgPlans plans = PgPlans.defaults();

    public PgPool(String jdbcUrl, int size) {
        this.jdbcUrl = jdbcUrl;
        resize(size);
    }

    /** At most {@code n} sessions busy from now on (waits for busy ones beyond it to come back). */
    public synchronized void resize(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("pool size must be at least 1, was " + n);
        }
        if (n > size) {
            permits.release(n - size);
        } else if (n < size) {
            permits.acquireUninterruptibly(size - n);
        }
        size = n;
    }

    public synchronized int size() {
        return size;
    }

    public void plans(PgPlans modes) {
        this.plans = modes;
    }

    public PgPlans plans() {
        return plans;
    }

    public <T> T with(Work<T> work) throws SQLException, InterruptedException {
        permits.acquire();
        try {
            PgSession s = idle.poll();
            if (s == null) {
                s = new PgSession(jdbcUrl);
                all.add(s);
            }
            try {
                return work.run(s, plans);
            } finally {
                idle.add(s);
            }
        } finally {
            permits.release();
        }
    }

    @Override
    public void close() {
        all.forEach(PgSession::close);
    }
}
