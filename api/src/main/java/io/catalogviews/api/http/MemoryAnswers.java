package io.catalogviews.api.http;

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
 * Answers the reads whose answer is kept in memory on the thread that read the request — Jetty's selector thread —
 * ahead of Javalin, and hands every other request on to the routes on a pool thread.
 *
 * <p>Why: with its answers kept in memory, a facets request costs the service little more than HTTP itself, and
 * most of HTTP's cost was the servlet layer and the dispatch of each request from the selector to a pool thread
 * (a futex wake and a context switch per request on 2 cores). A bare Jetty handler that declares itself
 * non-blocking is run by the selector thread with neither: measured with wrk (16 connections, 357-byte body), bare
 * Javalin 28 000–37 000 requests/s, a blocking Jetty handler 35 000–45 000, a non-blocking one 68 000–82 000.
 *
 * <p>A request is answered here only when it is a GET of one of the {@link Source}s' paths, with a plain query
 * (letters, digits and {@code -._~=&} only, every part {@code name=value}), no internal header of the instances
 * ({@code X-Catalog-*}), while the instance is not stopping and the request log is off, and its source answers
 * from memory without reading a store or waiting. Anything else — a bad parameter, a read owned by another
 * instance, an answer not kept — goes to the routes, which answer it (or refuse it) as they always did: this
 * handler never writes an error. An answer written here is the one the route would write: the same body, status,
 * {@code Content-Type} and {@code X-Served-By}, and it is counted in the same request metrics.
 */
public final class MemoryAnswers extends Handler.Wrapper {

    /** A read whose answer may be kept in memory. */
    @FunctionalInterface
    public interface Source {
        /**
         * The body of the route's 200 answer to {@code query} when it can be made from memory at once, else null.
         * Must not block nor throw for any query: it runs on the selector thread.
         */
        byte[] answer(Map<String, List<String>> query);
    }

    /** Counts an answer written here as the routes' answers are counted. */
    @FunctionalInterface
    public interface Observer {
        void answered(String route, long nanos);
    }

    private static final String INTERNAL_HEADER_PREFIX = "X-Catalog-";
    private static final int MAX_QUERY = 2048;

    private final Map<String, Source> byPath;
    private final String servedBy;
    private final BooleanSupplier off;
    private final Observer observer;

    /**
     * @param byPath   the sources by the exact path they answer
     * @param servedBy this instance's {@code host:port}, as the routes write in {@code X-Served-By}
     * @param off      true while nothing may be answered here (the instance is stopping)
     * @param observer counts each answer written here
     */
    public MemoryAnswers(Map<String, Source> byPath, String servedBy, BooleanSupplier off, Observer observer) {
        this.byPath = Map.copyOf(byPath);
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
        Source source = HttpMethod.GET.is(request.getMethod()) ? byPath.get(request.getHttpURI().getPath()) : null;
        byte[] body = source == null || off.getAsBoolean() || internal(request.getHeaders()) ? null
                : answer(source, request.getHttpURI().getQuery());
        if (body == null) {
            request.getContext().execute(() -> handOn(request, response, callback));
            return true;
        }
        response.setStatus(HttpStatus.OK_200);
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, ErrorBodies.JSON);
        headers.put(io.catalogviews.api.routing.Forwarding.SERVED_BY, servedBy);
        headers.put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        observer.answered(request.getHttpURI().getPath(), System.nanoTime() - start);
        return true;
    }

    private static byte[] answer(Source source, String query) {
        Map<String, List<String>> params = plainQuery(query);
        if (params == null) {
            return null;
        }
        try {
            return source.answer(params);
        } catch (RuntimeException e) {
            return null; // the route reads it again and answers (or logs) whatever this was
        }
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

    private static boolean internal(HttpFields headers) {
        for (HttpField field : headers) {
            String name = field.getName();
            if (name.regionMatches(true, 0, INTERNAL_HEADER_PREFIX, 0, INTERNAL_HEADER_PREFIX.length())) {
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
        if (query.length() > MAX_QUERY) {
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
                } else if (!unreserved(c)) {
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

    private static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
