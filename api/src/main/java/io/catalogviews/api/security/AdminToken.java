package io.catalogviews.api.security;

import io.catalogviews.api.http.ApiException;
import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The optional bearer token of the operator routes ({@code /metrics}, {@code /v1/cluster}). When configured,
 * a request to those routes must carry {@code Authorization: Bearer <token>}; otherwise it gets 401
 * {@code unauthorized} with {@code WWW-Authenticate: Bearer}. The token is compared in constant time (as
 * SHA-256 digests, so neither its content nor its length leaks through timing) and never logged.
 */
public final class AdminToken {

    /** The shortest token accepted: a guessable token is worse than none, since it looks like protection. */
    public static final int MIN_LENGTH = 16;
    private static final AdminToken NONE = new AdminToken(null);

    private final byte[] digest;

    private AdminToken(byte[] digest) {
        this.digest = digest;
    }

    public static AdminToken none() {
        return NONE;
    }

    /**
     * @param token null or blank for none
     * @throws IllegalArgumentException naming {@code --admin-token} when the token is too short or holds
     *                                  whitespace or control characters
     */
    public static AdminToken of(String token) {
        if (token == null || token.isEmpty()) {
            return NONE;
        }
        if (token.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("--admin-token must be at least " + MIN_LENGTH + " characters long");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                throw new IllegalArgumentException("--admin-token must not contain spaces or control characters");
            }
        }
        return new AdminToken(sha256(token));
    }

    public boolean isRequired() {
        return digest != null;
    }

    /** A before-handler: lets the request through when no token is configured or it carries the right one. */
    public void check(Context ctx) {
        if (digest == null) {
            return;
        }
        String authorization = ctx.header("Authorization");
        String presented = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : null;
        if (presented == null || !MessageDigest.isEqual(digest, sha256(presented))) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"catalog-views\"");
            throw ApiException.ofStatus(401, "unauthorized", presented == null
                    ? "this route needs the admin token: send Authorization: Bearer <token>"
                    : "the admin token is not valid");
        }
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM lacks SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return digest == null ? "AdminToken[none]" : "AdminToken[configured]";
    }
}
