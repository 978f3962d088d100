package io.catalogviews.api.http;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/**
 * Jetty's own errors (URI too long, headers too large, malformed requests), which never reach Javalin's
 * handlers, in the contract's JSON error shape instead of Jetty's HTML page, without stack traces.
 */
public final class JsonErrorHandler extends ErrorHandler {

    /**
     * Every method gets the JSON body: Jetty's default writes an error page only for GET, POST and HEAD, so a
     * {@code PATCH} with oversize headers got a bare 431 (found by {@code HttpFuzzIT}).
     */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        if (code == 505) {
            // A request line that is not HTTP/1.0 or 1.1 (HTTP/0.9, HTTP/1.7, garbage) is the client's fault: a 400
            // like any other malformed request, so that no input yields a 5xx but 503 and 504 (CONTRACT.md §4).
            code = 400;
            response.setStatus(code);
        }
        byte[] body = body(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, ErrorBodies.JSON);
        if (code == 503) {
            // Jetty refuses with 503 while it stops (GracefulHandler): like every 503 of the contract, say when to
            // retry.
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        }
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, ErrorBodies.JSON);
        return ByteBuffer.wrap(body(status));
    }

    private static byte[] body(int status) {
        String message = switch (status) {
            case 414 -> "the request URI is too long";
            case 431 -> "the request headers are too large";
            case 413 -> "the request body is too large";
            case 400 -> "the request is malformed";
            case 426 -> "this service speaks HTTP/1.1";
            case 503 -> "this instance cannot take the request now (it may be stopping); retry shortly";
            default -> "the request failed with status " + status;
        };
        return ErrorBodies.render(ApiException.ofStatus(status, ErrorBodies.codeForStatus(status), message));
    }
}
