package io.catalogviews.api.http;

import io.catalogviews.api.routing.Forwarding;
import io.catalogviews.api.routing.RequestTarget;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Answers plain reads directly on Jetty, ahead of Javalin: a read whose answer is kept in memory on the thread that
 * read the request (Jetty's selector thread), a read of a store on a pool thread; every other request is handed on to
 * the routes on a pool thread, as before.
 *
 * <p>Why: with its answers kept in memory, a facets request cost the service little more than HTTP itself, and most
 * of HTTP's cost was the servlet layer and the dispatch of each request from the selector to a pool thread (a futex
 * wake and a context switch per request on 2 cores). A bare Jetty handler that declares itself non-blocking is run
 * by the selector thread with neither: measured with wrk (16 connections, 357-byte body), bare Javalin 28 000–37 000
 * requests/s, a blocking Jetty handler 35 000–45 000, a non-blocking one 68 000–82 000.
 *
 * <p>A request is answered here only when it is a GET of one of the {@link Route}s' paths made of unreserved
 * characters, with a plain query (letters, digits and {@code -._~=&} only, every part {@code name=value}), no
 * internal header of the instances ({@code X-Catalog-*}) and no {@code If-None-Match}, while the instance is not
 * stopping, and its source answers 200 at once. Anything else — a bad parameter, a read owned by another instance,
 * an answer not kept, a product not found — goes to the routes, which answer it (or refuse it) as they always did:
 * this handler never writes an error. An answer written here is the one the route would write: the same body,
 * status, {@code Content-Type}, {@code ETag} and {@code X-Served-By}, counted in the same request metrics.
 */
public final class DirectAnswers extends Handler.Wrapper {

    /** The body of a 200 answer, and its entity tag when the route writes one (else null). */
    public record Answer(byte[] body, String etag) {
    }

    /** A read that may be answered here. */
    @FunctionalInterface
    public interface Source {
        /**
         * The route's 200 answer to a GET of {@code path} with {@code query} when it can be made at once, else null.
         * Must not throw for any path or query; a source of a non-blocking route must not block either (it runs on
         * the selector thread).
         */
        Answer answer(String path, Map<String, List<String>> query);
    }

    /**
     * @param path     the exact path answered, or with {@code prefix} the path before one more segment
     * @param prefix   whether {@code path} is followed by one segment ({@code /v1/products/} and an id)
     * @param mayBlock whether the source reads a store (run on a pool thread) or only memory (on the selector thread)
     * @param template the route's template, as the request metrics name it
     */
    public record Route(String path, boolean prefix, boolean mayBlock, String template, Source source) {
    }

    /** Counts an answer written here as the routes' answers are counted. */
    @FunctionalInterface
    public interface Observer {
        void answered(String template, long nanos);
    }

    private static final String INTERNAL_HEADER_PREFIX = "X-Catalog-";
    private static final int MAX_TARGET = 2048;

    private final Map<String, Route> exact = new LinkedHashMap<>();
    private final List<Route> prefixed = new ArrayList<>();
    private final String servedBy;
    private final BooleanSupplier off;
    private final Observer observer;

    /**
     * @param routes   the reads answered here
     * @param servedBy this instance's {@code host:port}, as the routes write in {@code X-Served-By}
     * @param off      true while nothing may be answered here (the instance is stopping)
     * @param observer counts each answer written here
     */
    public DirectAnswers(List<Route> routes, String servedBy, BooleanSupplier off, Observer observer) {
        for (Route route : routes) {
            if (route.prefix()) {
                prefixed.add(route);
            } else {
                exact.put(route.path(), route);
            }
        }
        this.servedBy = servedBy;
        this.off = off;
        this.observer = observer;
    }

    /** Non-blocking, so that Jetty runs {@link #handle} on the selector thread without a dispatch. */
    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        long start = System.nanoTime();
        String path = request.getHttpURI().getPath();
        Route route = HttpMethod.GET.is(request.getMethod()) && !off.getAsBoolean() ? route(path) : null;
        Map<String, List<String>> query = route == null || excluded(request.getHeaders()) ? null
                : plainQuery(request.getHttpURI().getQuery());
        if (query == null) {
            request.getContext().execute(() -> handOn(request, response, callback));
        } else if (route.mayBlock()) {
            request.getContext().execute(() -> {
                if (!answer(route, path, query, response, callback, start)) {
                    handOn(request, response, callback);
                }
            });
        } else if (!answer(route, path, query, response, callback, start)) {
            request.getContext().execute(() -> handOn(request, response, callback));
        }
        return true;
    }

    /** Writes the source's answer; false, having written nothing, when it has none. */
    private boolean answer(Route route, String path, Map<String, List<String>> query, Response response,
                           Callback callback, long start) {
        Answer answer;
        try {
            answer = route.source().answer(path, query);
        } catch (RuntimeException e) {
            answer = null; // the route reads it again and answers (or logs) whatever this was
        }
        if (answer == null) {
            return false;
        }
        response.setStatus(HttpStatus.OK_200);
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, ErrorBodies.JSON);
        if (answer.etag() != null) {
            headers.put(HttpHeader.ETAG, answer.etag());
        }
        headers.put(Forwarding.SERVED_BY, servedBy);
        headers.put(HttpHeader.CONTENT_LENGTH, answer.body().length);
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
        observer.answered(route.template(), System.nanoTime() - start);
        return true;
    }

    /** The rest of the handlers (Javalin's), on a pool thread: they may block. */
    private void handOn(Request request, Response response, Callback callback) {
        try {
            if (!super.handle(request, response, callback)) {
                Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            }
        } catch (Throwable t) {
            Response.writeError(request, response, callback, t);
        }
    }

    /** The route of {@code path}, when it has one and is made of unreserved characters and slashes only. */
    private Route route(String path) {
        if (path == null || path.length() > MAX_TARGET) {
            return null;
        }
        Route route = exact.get(path);
        if (route != null) {
            return route;
        }
        for (Route candidate : prefixed) {
            if (path.length() > candidate.path().length() && path.startsWith(candidate.path())
                    && plainSegment(path, candidate.path().length())) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean plainSegment(String path, int from) {
        for (int i = from; i < path.length(); i++) {
            if (!RequestTarget.unreserved(path.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Headers that only the routes handle: the instances' internal ones, and a conditional GET. */
    private static boolean excluded(HttpFields headers) {
        for (HttpField field : headers) {
            String name = field.getName();
            if (name.regionMatches(true, 0, INTERNAL_HEADER_PREFIX, 0, INTERNAL_HEADER_PREFIX.length())
                    || field.getHeader() == HttpHeader.IF_NONE_MATCH) {
                return true;
            }
        }
        return false;
    }

    /**
     * The parameters of a query made only of unreserved characters, {@code =} and {@code &}, each part
     * {@code name=value} with a name: decoding would change nothing, so the routes' parse reads the same map. Null
     * for any other query (the routes parse it); empty for none.
     */
    static Map<String, List<String>> plainQuery(String query) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return params;
        }
        if (query.length() > MAX_TARGET) {
            return null;
        }
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            int eq = -1;
            for (int i = start; i < end; i++) {
                char c = query.charAt(i);
                if (c == '=') {
                    if (eq >= 0) {
                        return null;
                    }
                    eq = i;
                } else if (!RequestTarget.unreserved(c)) {
                    return null;
                }
            }
            if (eq <= start) {
                return null; // no name, or no '=' (an empty part included)
            }
            params.computeIfAbsent(query.substring(start, eq), k -> new ArrayList<>(1))
                    .add(query.substring(eq + 1, end));
            start = end + 1;
        }
        return params;
    }
}
