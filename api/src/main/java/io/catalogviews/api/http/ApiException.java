package io.catalogviews.api.http;

/**
 * A request that ends in a contract error: the HTTP status, the stable {@code code}, a message for people,
 * and optionally the parameter it is about. Thrown by handlers; turned into the JSON error body in exactly one
 * place ({@link ErrorBodies}).
 */
public final class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String parameter;
    private final Integer retryAfterSeconds;
    private final boolean hasCurrentVersion;
    private final Long currentVersion;
    /** A 503 because data is moving between instances (a rebalance, a restore, an owner that left): it passes soon. */
    private final boolean whileMoving;

    private ApiException(int status, String code, String message, String parameter, Integer retryAfterSeconds,
                         boolean hasCurrentVersion, Long currentVersion, Throwable cause) {
        this(status, code, message, parameter, retryAfterSeconds, hasCurrentVersion, currentVersion, cause, false);
    }

    private ApiException(int status, String code, String message, String parameter, Integer retryAfterSeconds,
                         boolean hasCurrentVersion, Long currentVersion, Throwable cause, boolean whileMoving) {
        super(message, cause, false, false);
        this.whileMoving = whileMoving;
        this.status = status;
        this.code = code;
        this.parameter = parameter;
        this.retryAfterSeconds = retryAfterSeconds;
        this.hasCurrentVersion = hasCurrentVersion;
        this.currentVersion = currentVersion;
    }

    private static ApiException of(int status, String code, String message) {
        return new ApiException(status, code, message, null, null, false, null, null);
    }

    public static ApiException badRequest(String parameter, String message) {
        return new ApiException(400, "bad_request", message, parameter, null, false, null, null);
    }

    public static ApiException badRequest(String message) {
        return of(400, "bad_request", message);
    }

    public static ApiException notFound(String message) {
        return of(404, "not_found", message);
    }

    public static ApiException methodNotAllowed(String message) {
        return of(405, "method_not_allowed", message);
    }

    public static ApiException versionNotReached(long minVersion, Long currentVersion) {
        return new ApiException(409, "version_not_reached", "the view did not reach version " + minVersion
                + " in time", null, null, true, currentVersion, null);
    }

    /** 422 {@code query_too_broad}: answering would examine more than a scan may; narrow {@code parameter}. */
    public static ApiException queryTooBroad(String parameter, String message) {
        return new ApiException(422, "query_too_broad", message, parameter, null, false, null, null);
    }

    public static ApiException tooLarge(String parameter, String message) {
        return new ApiException(413, "too_large", message, parameter, null, false, null, null);
    }

    public static ApiException unsupportedMediaType(String message) {
        return of(415, "unsupported_media_type", message);
    }

    /** 503: the owner cannot answer now (rebalancing, restoring, gone); the client should retry. */
    public static ApiException unavailable(String message, int retryAfterSeconds) {
        return new ApiException(503, "unavailable", message, null, retryAfterSeconds, false, null, null);
    }

    /**
     * 503 {@code unavailable}, as {@link #unavailable}, because the data is moving between instances; the instance
     * the client asked may try again for a moment before answering it ({@link #whileMoving()}).
     */
    public static ApiException unavailableWhileMoving(String message, int retryAfterSeconds) {
        return new ApiException(503, "unavailable", message, null, retryAfterSeconds, false, null, null, true);
    }

    /** True for a refusal made by {@link #unavailableWhileMoving}: not a cap, a shutdown or a deadline. */
    public boolean whileMoving() {
        return whileMoving;
    }

    public static ApiException ownerTimeout(String message) {
        return of(504, "owner_timeout", message);
    }

    /** For statuses produced by the HTTP layer itself (414, 431, …) with a code named after the status. */
    public static ApiException ofStatus(int status, String code, String message) {
        return of(status, code, message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String parameter() {
        return parameter;
    }

    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public boolean hasCurrentVersion() {
        return hasCurrentVersion;
    }

    public Long currentVersion() {
        return currentVersion;
    }
}
