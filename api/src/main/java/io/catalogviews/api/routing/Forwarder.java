package io.catalogviews.api.routing;

import io.catalogviews.views.routing.Instance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sends reads to the instance that owns the data: one pooled, keep-alive HTTP/1.1 client for the whole
 * instance, asynchronous so that no Jetty thread waits on another instance. Targets come from Kafka Streams
 * metadata only, never from a request (no open proxy); paths and queries are built from parsed values
 * ({@link RequestTarget}). Every request carries {@link Forwarding#FORWARDED_BY} and {@link Forwarding#DEADLINE},
 * signed by {@link PeerHeaders}. Failures become typed errors ({@link ReadFailures}): 503 when the owner cannot be
 * reached (it may be restarting or moving), 504 when it does not answer in time.
 */
public final class Forwarder implements Peers, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);

    private final Instance self;
    private final HttpClient client;
    private final ExecutorService executor;
    private final ForwardObserver observer;
    private final PeerHeaders headers;

    public Forwarder(Instance self, Duration connectTimeout, int threads, PeerHeaders headers) {
        this(self, connectTimeout, threads, ForwardObserver.NONE, headers);
    }

    /**
     * @param observer told how every forwarded call ended (metrics)
     * @param headers  signs the internal headers of every request
     */
    public Forwarder(Instance self, Duration connectTimeout, int threads, ForwardObserver observer,
                     PeerHeaders headers) {
        this.self = self;
        this.observer = observer;
        this.headers = headers;
        this.executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "forwarder");
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
    }

    @Override
    public CompletableFuture<ForwardedResponse> send(Instance target, PeerRequest request, Duration timeout) {
        return send(target, build(target, request, timeout.toMillis() < 1 ? Duration.ofMillis(1) : timeout));
    }

    private HttpRequest build(Instance target, PeerRequest request, Duration timeout) {
        // The target is encoded by RequestTarget and the host comes from metadata: URI.create cannot fail here.
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create("http://" + target.hostPort()
                        + request.pathAndQuery()))
                .timeout(timeout);
        headers.sign(http, request, self, timeout);
        if (request.ifNoneMatch() != null) {
            http.header("If-None-Match", request.ifNoneMatch());
        }
        if (request.body() == null) {
            http.GET();
        } else {
            http.header("Content-Type", request.contentType())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()));
        }
        return http.build();
    }

    private CompletableFuture<ForwardedResponse> send(Instance target, HttpRequest request) {
        long startNanos = System.nanoTime();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, failure) -> {
                    observer.forwarded(target, failure == null ? ForwardObserver.Outcome.ofStatus(response.statusCode())
                            : outcomeOf(failure), System.nanoTime() - startNanos);
                    if (failure == null) {
                        return new ForwardedResponse(response.statusCode(), response.headers().map(),
                                response.body());
                    }
                    throw translate(target, failure);
                });
    }

    private static ForwardObserver.Outcome outcomeOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)
                ? ForwardObserver.Outcome.TIMEOUT : ForwardObserver.Outcome.UNREACHABLE;
    }

    private static CompletionException translate(Instance target, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
            LOG.debug("Owner {} did not answer in time", target, cause);
            return new CompletionException(ReadFailures.peerTimeout());
        }
        if (!(cause instanceof ConnectException) && !(cause instanceof HttpConnectTimeoutException)) {
            LOG.debug("Forwarding to {} failed", target, cause);
        }
        return new CompletionException(ReadFailures.peerUnreachable());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
