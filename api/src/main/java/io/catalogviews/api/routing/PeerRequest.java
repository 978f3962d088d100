package io.catalogviews.api.routing;

/**
 * A request to another instance, built from what a route parsed ({@link RequestTarget}), never copied from the
 * request being answered. The {@link Forwarder} adds what marks every such request ({@link PeerHeaders}: the
 * instance that sent it, its deadline, the signature); {@link #replicaRead()} asks the callee to answer from its own
 * copy of the data, active or standby.
 *
 * @param method        {@code GET} or {@code POST}
 * @param pathAndQuery  already encoded ({@link RequestTarget#encoded()})
 * @param body          the POST body, null for a GET
 * @param contentType   of the body, null for a GET
 * @param ifNoneMatch   entity tags for conditional product reads, as the route parsed them, or null
 * @param replicaRead   whether the callee answers from any local copy (a failover to a standby)
 */
public record PeerRequest(String method, String pathAndQuery, byte[] body, String contentType, String ifNoneMatch,
                          boolean replicaRead) {

    public static PeerRequest get(String path) {
        return get(RequestTarget.path(path));
    }

    public static PeerRequest get(RequestTarget target) {
        return new PeerRequest("GET", target.encoded(), null, null, null, false);
    }

    public static PeerRequest post(String path, byte[] body, String contentType) {
        return new PeerRequest("POST", RequestTarget.path(path).encoded(), body, contentType, null, false);
    }

    /** The same request, conditional on {@code entityTags} (null: unconditional). */
    public PeerRequest ifNoneMatch(String entityTags) {
        return new PeerRequest(method, pathAndQuery, body, contentType, entityTags, replicaRead);
    }

    /** The same request, to be answered from the callee's own copy (a standby), marked stale. */
    public PeerRequest toReplica() {
        return new PeerRequest(method, pathAndQuery, body, contentType, ifNoneMatch, true);
    }
}
