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

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        byte[] body = body(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, ErrorBodies.JSON);
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
            default -> "the request failed with status " + status;
        };
        return ErrorBodies.render(ApiException.ofStatus(status, ErrorBodies.codeForStatus(status), message));
    }
}
