package io.catalogviews.api.logging;

import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * The request log: one line per HTTP request, on logger {@value #LOGGER} at INFO, once the answer is complete:
 * <pre>
 * 127.0.0.1 "GET /v1/products/p-42?minVersion=3" 200 1.8 ms served-by=host-b:8080
 * </pre>
 * Off unless {@code --request-log} is given. The path and query are written as received (percent-encoded),
 * cut at {@value #MAX_TARGET} characters, with control characters replaced so a line stays one line.
 * Headers, bodies and the {@code Authorization} header are never logged.
 */
public final class RequestLog {

    public static final String LOGGER = "io.catalogviews.requests";
    static final int MAX_TARGET = 512;
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private RequestLog() {
    }

    /** A Javalin request logger. */
    public static void log(Context ctx, Float executionTimeMs) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        LOG.info(line(ctx.ip(), ctx.method().name(), ctx.path(), ctx.queryString(), ctx.statusCode(),
                executionTimeMs == null ? 0f : executionTimeMs, ctx.res().getHeader("X-Served-By")));
    }

    static String line(String ip, String method, String path, String query, int status, float ms, String servedBy) {
        String target = path + (query == null || query.isEmpty() ? "" : "?" + query);
        if (target.length() > MAX_TARGET) {
            target = target.substring(0, MAX_TARGET) + "…";
        }
        StringBuilder line = new StringBuilder(96 + target.length());
        line.append(ip).append(" \"").append(method).append(' ');
        appendClean(line, target);
        line.append("\" ").append(status).append(' ').append(String.format(Locale.ROOT, "%.1f", ms)).append(" ms");
        if (servedBy != null) {
            line.append(" served-by=");
            appendClean(line, servedBy);
        }
        return line.toString();
    }

    private static void appendClean(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c < ' ' || c == 0x7f || c == '"' ? '?' : c);
        }
    }
}
