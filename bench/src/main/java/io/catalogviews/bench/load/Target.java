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

    /** What watches this target during a measured window (the service's threads and metrics; nothing for peers). */
    default io.catalogviews.bench.observe.RunObserver observer() {
        return io.catalogviews.bench.observe.RunObserver.NONE;
    }

    /** One load thread's connection. Not thread-safe. */
    interface Client extends AutoCloseable {
        /** Sends one query and checks its answer; never throws for a failed or wrong answer. */
        Outcome call(Query query);

        @Override
        void close();
    }

    /**
     * How one query went.
     *
     * @param parsed whether checking it took a parse (its body differed from the expected bytes)
     */
    record Outcome(Kind kind, int bytes, String detail, boolean parsed) {

        public Outcome(Kind kind, int bytes, String detail) {
            this(kind, bytes, detail, false);
        }

        /** Right, recognised by its bytes. */
        public static Outcome ok(int bytes) {
            return new Outcome(Kind.OK, bytes, null, false);
        }
    }

    enum Kind { OK, WRONG, ERROR }
}
