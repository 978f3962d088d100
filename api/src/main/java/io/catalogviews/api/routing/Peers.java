package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Sends requests to other instances of the deployment; {@link Forwarder} is the one that uses HTTP. */
@FunctionalInterface
public interface Peers {

    /**
     * Sends {@code request} to {@code target} (always an instance from Kafka Streams metadata).
     *
     * @return the target's answer, whatever its status; or a future failed with an
     *         {@link io.catalogviews.api.http.ApiException}: 503 when the target cannot be reached, 504
     *         {@code owner_timeout} when it does not answer within {@code timeout}
     */
    CompletableFuture<ForwardedResponse> send(Instance target, PeerRequest request, Duration timeout);
}
