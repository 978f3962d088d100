package io.catalogviews.api.routing;

/**
 * The headers that mark a request between instances and its answer. The internal request headers are written and
 * read only by {@link PeerHeaders}, and honoured only when a peer signed them ({@link PeerCall}).
 */
public final class Forwarding {

    /**
     * Set on every forwarded request, naming the instance that forwarded it. A request carrying it is
     * answered locally or refused, never forwarded again: routing cannot loop.
     */
    public static final String FORWARDED_BY = "X-Catalog-Forwarded-By";
    /**
     * Epoch milliseconds (the caller's clock) after which the forwarding instance stops waiting for the answer; the
     * callee stops its work by then too.
     */
    public static final String DEADLINE = "X-Catalog-Deadline";
    /** Set by a caller that fails over to a standby: answer from the local copy, active or standby. */
    public static final String REPLICA_READ = "X-Catalog-Replica-Read";
    /** Marks an answer served by a standby replica that may lag the active owner. */
    public static final String STALE = "X-Stale";
    /** With {@link #STALE}: how many changelog records the answering replica was behind. */
    public static final String LAG_RECORDS = "X-Lag-Records";
    /** Names the instance(s) whose stores answered. */
    public static final String SERVED_BY = "X-Served-By";

    private Forwarding() {
    }
}
