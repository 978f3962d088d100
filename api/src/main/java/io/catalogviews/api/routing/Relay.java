package io.catalogviews.api.routing;

import io.catalogviews.api.http.Responses;
import io.javalin.http.Context;

import java.util.List;

/** Passes another instance's answer to a public request on as this instance's answer. */
final class Relay {

    /** The headers of a peer's answer that the client needs; hop-by-hop and server headers stay behind. */
    private static final List<String> HEADERS = List.of("ETag", Forwarding.SERVED_BY, "Retry-After", "Content-Type",
            Forwarding.STALE, Forwarding.LAG_RECORDS);

    private Relay() {
    }

    static void relay(Context ctx, ForwardedResponse response) {
        for (String header : HEADERS) {
            response.header(header).ifPresent(value -> ctx.header(header, value));
        }
        ctx.status(response.status());
        if (response.status() >= 400) {
            // The peer already wrote the contract's error body: keep it (not Javalin's generic 404/405 page).
            ctx.attribute(Responses.ERROR_WRITTEN, Boolean.TRUE);
        }
        if (response.status() != 304) {
            ctx.result(response.body());
        }
    }
}
