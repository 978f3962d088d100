package io.catalogviews.bench.load;

import io.catalogviews.bench.query.Query;

/**
 * Something the load runner sends queries to: the service, the HTTP ceiling, PostgreSQL behind HTTP or through
 * JDBC. Each load thread opens its own {@link Client}; {@code checks} is shared by the threads of one run.
 */
public interface Target {

    String name();

    /** The processes whose CPU time this target spends (their direct children included); empty when unknown. */
    long[] pids();

    Client open(Checks checks) throws Exception;

    /** One load thread's connection. Not thread-safe. */
    interface Client extends AutoCloseable {
        /** Sends one query and checks its answer; never throws for a failed or wrong answer. */
        Outcome call(Query query);

        @Override
        void close();
    }

    /** How one query went. */
    record Outcome(Kind kind, int bytes, String detail) {
        public static Outcome ok(int bytes) {
            return new Outcome(Kind.OK, bytes, null);
        }
    }

    enum Kind { OK, WRONG, ERROR }
}
