package io.catalogviews.api.http;

import io.javalin.http.Context;
import org.eclipse.jetty.http.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Writes answers and errors; the one place where an {@link ApiException} becomes an HTTP response. */
public final class Responses {

    private static final Logger LOG = LoggerFactory.getLogger(Responses.class);

    private Responses() {
    }

    public static void json(Context ctx, int status, byte[] body) {
        ctx.status(status).contentType(ErrorBodies.JSON).result(body);
    }

    /** Request attribute set once a contract error body is written, so generic 404/405 pages keep it. */
    public static final String ERROR_WRITTEN = "catalog-views.error-written";

    public static void error(Context ctx, ApiException e) {
        ctx.attribute(ERROR_WRITTEN, Boolean.TRUE);
        if (e.retryAfterSeconds() != null) {
            ctx.header("Retry-After", Integer.toString(e.retryAfterSeconds()));
        }
        ctx.status(e.status()).contentType(ErrorBodies.JSON).result(ErrorBodies.render(e));
    }

    /**
     * Completes the response from {@code work}, turning any failure into the contract's error body.
     *
     * <p>The answer is written on one of Jetty's threads, never on the thread that completes {@code work}: Javalin
     * 7.2.3 writes an asynchronous answer, blocking, on whatever thread completes the future it was given, so a
     * client that does not read would hold that thread until the idle timeout. Measured (RequestBoundsHttpTest):
     * two such clients waiting for a version held the one version-waiters thread, and every other wait of the
     * instance stalled; forwarded answers are completed on the JDK's shared asynchronous pool (a new thread per
     * answer on 2 cores, the common fork-join pool on more). A Jetty thread held that way is bounded like any
     * other (ApiServer: one per connection at most, more threads than connections, the idle timeout).
     */
    public static void later(Context ctx, CompletableFuture<?> work) {
        if (work.isDone()) {
            // Done already (every part was read on this thread): its last step has set the answer, so no
            // asynchronous context is needed, whose dispatch and completion cost a tenth of a kept page's request.
            try {
                work.join();
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                error(ctx, toApiException(e));
            }
            return;
        }
        ctx.future(() -> {
            CompletableFuture<Void> written = new CompletableFuture<>();
            work.whenComplete((ok, failure) -> onServerThread(ctx, () -> {
                try {
                    if (failure != null) {
                        error(ctx, toApiException(failure));
                    }
                } finally {
                    written.complete(null);
                }
            }));
            return written;
        });
    }

    /** Runs {@code step} on a thread of the server's pool, through the request's asynchronous context. */
    private static void onServerThread(Context ctx, Runnable step) {
        try {
            ctx.req().getAsyncContext().start(step);
        } catch (IllegalStateException | UnsupportedOperationException e) {
            step.run(); // no asynchronous context (the request already ended, or a test double): write here
        }
    }

    /** Unwraps what an asynchronous step failed with into the error the client should see. */
    public static ApiException toApiException(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ApiException api) {
            return api;
        }
        Optional<ApiException> clientFault = clientFault(cause);
        if (clientFault.isPresent()) {
            return clientFault.get();
        }
        LOG.error("An asynchronous step of a request failed", cause);
        return ApiException.ofStatus(500, "internal_error", "the request failed inside the service");
    }

    /**
     * The 4xx for a failure of the client's message or connection, found in {@code failure}'s causes: a body that
     * ends before its {@code Content-Length} or its last chunk, malformed chunking (Jetty's {@link HttpException}
     * with its 4xx, otherwise 400 naming {@code body}), or a body that did not arrive in time (408). Empty for
     * anything else, which is the service's own failure.
     */
    public static Optional<ApiException> clientFault(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpException http && http.getCode() > 400 && http.getCode() < 500) {
                return Optional.of(ApiException.ofStatus(http.getCode(), ErrorBodies.codeForStatus(http.getCode()),
                        "the request could not be read (" + http.getCode() + ")"));
            }
            if (t instanceof HttpException http && http.getCode() == 400) {
                return Optional.of(unreadableBody());
            }
            if (t instanceof TimeoutException) {
                return Optional.of(ApiException.ofStatus(408, "request_timeout", "the request body did not arrive "
                        + "in time"));
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException) {
                return Optional.of(unreadableBody());
            }
        }
        return Optional.empty();
    }

    private static ApiException unreadableBody() {
        return ApiException.badRequest("body", "the request body could not be read: it ended before its announced "
                + "length or its chunked encoding is malformed");
    }
}
