package io.catalogviews.api.http;

import io.catalogviews.views.json.JsonBytes;

/**
 * The contract's error body, {@code {"error":{"code":…,"message":…,"parameter":…}}}, for every failure.
 * No stack traces and no internal host names: messages are written by this service, never copied from
 * exceptions of other layers.
 */
public final class ErrorBodies {

    public static final String JSON = "application/json";

    private ErrorBodies() {
    }

    public static byte[] render(ApiException e) {
        JsonBytes out = new JsonBytes(160);
        out.raw((byte) '{').name("error").raw((byte) '{');
        out.name("code").string(e.code()).comma();
        out.name("message").string(e.getMessage() == null ? e.code() : e.getMessage());
        if (e.parameter() != null) {
            out.comma().name("parameter").string(e.parameter());
        }
        if (e.hasCurrentVersion()) {
            out.comma().name("currentVersion");
            if (e.currentVersion() == null) {
                out.nullValue();
            } else {
                out.number(e.currentVersion());
            }
        }
        out.raw((byte) '}').raw((byte) '}');
        return out.toByteArray();
    }

    /** The stable code for a status the HTTP layer produced without a handler. */
    public static String codeForStatus(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 408 -> "request_timeout";
            case 409 -> "version_not_reached";
            case 413 -> "too_large";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 431 -> "headers_too_large";
            case 503 -> "unavailable";
            case 504 -> "owner_timeout";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
    }
}
