package io.catalogviews.api.routing;

/** The headers that mark a forwarded request. */
public final class Forwarding {

    /**
     * Set on every forwarded request, naming the instance that forwarded it. A request carrying it is
     * answered locally or refused, never forwarded again: routing cannot loop.
     */
    public static final String FORWARDED_BY = "X-Catalog-Forwarded-By";
    /** Epoch milliseconds after which the forwarding instance stops waiting for the answer. */
    public static final String DEADLINE = "X-Catalog-Deadline";
    /** Names the instance(s) whose stores answered. */
    public static final String SERVED_BY = "X-Served-By";

    private Forwarding() {
    }
}
