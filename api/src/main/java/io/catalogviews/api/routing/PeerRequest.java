package io.catalogviews.api.routing;

import io.javalin.http.Context;

/**
 * A request to another instance. The {@link Forwarder} adds what marks every such request (the instance that
 * forwarded it and its deadline); {@link #replicaRead()} asks the callee to answer from its own copy of the data,
 * active or standby.
 *
 * @param method        {@code GET} or {@code POST}
 * @param pathAndQuery  already encoded
 * @param body          the POST body, null for a GET
 * @param contentType   of the body, null for a GET
 * @param ifNoneMatch   passed on for conditional product reads, or null
 * @param replicaRead   whether the callee answers from any local copy (a failover to a standby)
 */
public record PeerRequest(String method, String pathAndQuery, byte[] body, String contentType, String ifNoneMatch,
                          boolean replicaRead) {

    public static PeerRequest get(String pathAndQuery) {
        return new PeerRequest("GET", pathAndQuery, null, null, null, false);
    }

    public static PeerRequest post(String path, byte[] body, String contentType) {
        return new PeerRequest("POST", path, body, contentType, null, false);
    }

    /** The public GET being answered, sent on as it came: path, query and {@code If-None-Match}. */
    public static PeerRequest sameGet(Context ctx) {
        String query = ctx.queryString();
        String pathAndQuery = ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
        return new PeerRequest("GET", pathAndQuery, null, null, ctx.header("If-None-Match"), false);
    }

    /** The same request, to be answered from the callee's own copy (a standby), marked stale. */
    public PeerRequest toReplica() {
        return new PeerRequest(method, pathAndQuery, body, contentType, ifNoneMatch, true);
    }
}
