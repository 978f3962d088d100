package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.routing.Instance;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that writes and reads the internal headers which change routing or staleness between instances
 * ({@link Forwarding#FORWARDED_BY}, {@link Forwarding#DEADLINE}, {@link Forwarding#REPLICA_READ}), and their
 * signature {@value #SIGNATURE}: {@code <epoch millis>:<base64url HMAC-SHA256>} over
 * <pre>
 * "catalog-views/peer/1" LF method LF raw path LF raw query LF epoch millis LF
 * forwarded-by LF deadline LF replica-read
 * </pre>
 * (absent values empty), keyed by the cluster secret. A request is a peer's only when its signature verifies with
 * the current secret or the previous one (a rotation) and its timestamp is within {@link #MAX_CLOCK_SKEW} of this
 * instance's clock; otherwise its internal headers are ignored, never an error, and it is answered as any client's.
 * The routes learn the verdict from {@link PeerCall#of}.
 *
 * <p>The caller's deadline is honoured as a budget: the callee counts {@code deadline - timestamp} (both the
 * caller's clock) from when it starts handling the request, so clock skew between instances does not shift it.
 *
 * <p>The body of a POST is not signed: a replayed signature (within the skew) with another body can only ask for a
 * read of this instance's own copies, which any client may read through the public routes.
 */
public final class PeerHeaders {

    /** The signature of the internal headers. */
    public static final String SIGNATURE = "X-Catalog-Signature";
    /** How far a signature's timestamp may be from this instance's clock (replays are accepted within it). */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(30);
    /** The longest budget a caller's deadline may give (longer ones are cut to it). */
    static final Duration MAX_BUDGET = Duration.ofMinutes(2);

    private static final Logger LOG = LoggerFactory.getLogger(PeerHeaders.class);
    private static final String HMAC = "HmacSHA256";
    private static final byte[] KEY_LABEL = "catalog-views/peer-key/1".getBytes(StandardCharsets.US_ASCII);
    private static final String DOMAIN = "catalog-views/peer/1";
    /** Epoch millis, then the 32-byte MAC as 43 characters of unpadded base64url. */
    private static final Pattern SIGNATURE_VALUE = Pattern.compile("([0-9]{1,15}):([A-Za-z0-9_-]{43})");
    private static final Pattern MILLIS = Pattern.compile("[0-9]{1,15}");

    private final List<ThreadLocal<Mac>> keys;
    private final Clock clock;

    /**
     * @param secret         the cluster secret (configured, or derived from the application id); not empty
     * @param previousSecret the one before it, still accepted while every instance moves to {@code secret}; or null
     */
    public PeerHeaders(String secret, String previousSecret) {
        this(secret, previousSecret, Clock.systemUTC());
    }

    PeerHeaders(String secret, String previousSecret, Clock clock) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("the cluster secret must not be empty");
        }
        List<ThreadLocal<Mac>> macs = new ArrayList<>();
        macs.add(macOf(secret));
        if (previousSecret != null && !previousSecret.isEmpty() && !previousSecret.equals(secret)) {
            macs.add(macOf(previousSecret));
        }
        this.keys = List.copyOf(macs);
        this.clock = clock;
    }

    /**
     * Adds the internal headers of {@code request} and their signature to the request to a peer.
     *
     * @param self    this instance, named in {@link Forwarding#FORWARDED_BY}
     * @param timeout how long this instance waits for the answer: the deadline sent
     */
    public void sign(HttpRequest.Builder http, PeerRequest request, Instance self, Duration timeout) {
        long now = clock.millis();
        String forwardedBy = self.hostPort();
        String deadline = Long.toString(now + timeout.toMillis());
        String replicaRead = request.replicaRead() ? "true" : "";
        int q = request.pathAndQuery().indexOf('?');
        String path = q < 0 ? request.pathAndQuery() : request.pathAndQuery().substring(0, q);
        String query = q < 0 ? "" : request.pathAndQuery().substring(q + 1);
        byte[] mac = mac(keys.get(0), request.method(), path, query, now, forwardedBy, deadline, replicaRead);
        http.header(Forwarding.FORWARDED_BY, forwardedBy)
                .header(Forwarding.DEADLINE, deadline)
                .header(SIGNATURE, now + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(mac));
        if (request.replicaRead()) {
            http.header(Forwarding.REPLICA_READ, replicaRead);
        }
    }

    /**
     * A before-handler: decides once per request whether its internal headers come from a peer and leaves the
     * verdict for {@link PeerCall#of}. A peer's request whose deadline has passed already is answered 504 at once.
     */
    public void verify(Context ctx) {
        long arrivalNanos = System.nanoTime();
        PeerCall call = read(ctx, arrivalNanos);
        ctx.attribute(PeerCall.ATTRIBUTE, call);
        if (call.deadlinePassed()) {
            throw ReadFailures.callerOutOfTime();
        }
    }

    private PeerCall read(Context ctx, long arrivalNanos) {
        String signature = ctx.header(SIGNATURE);
        if (signature == null) {
            return PeerCall.PUBLIC;
        }
        Matcher m = SIGNATURE_VALUE.matcher(signature);
        if (!m.matches()) {
            return ignored(ctx, "a malformed signature");
        }
        long timestamp = Long.parseLong(m.group(1));
        if (Math.abs(clock.millis() - timestamp) > MAX_CLOCK_SKEW.toMillis()) {
            return ignored(ctx, "a signature older or newer than " + MAX_CLOCK_SKEW.toSeconds() + " s");
        }
        byte[] presented = Base64.getUrlDecoder().decode(m.group(2));
        String forwardedBy = orEmpty(ctx.header(Forwarding.FORWARDED_BY));
        String deadline = orEmpty(ctx.header(Forwarding.DEADLINE));
        String replicaRead = orEmpty(ctx.header(Forwarding.REPLICA_READ));
        String query = orEmpty(ctx.req().getQueryString());
        boolean valid = false;
        for (ThreadLocal<Mac> key : keys) {
            // Every key is tried, so the time taken does not tell which one matched.
            valid |= MessageDigest.isEqual(presented, mac(key, ctx.req().getMethod(), ctx.req().getRequestURI(),
                    query, timestamp, forwardedBy, deadline, replicaRead));
        }
        if (!valid) {
            return ignored(ctx, "a signature that does not verify");
        }
        return new PeerCall(!forwardedBy.isEmpty(), "true".equals(replicaRead),
                deadline(deadline, timestamp, arrivalNanos));
    }

    /** The caller's deadline as a budget counted from arrival; null without one. */
    private static Deadline deadline(String header, long timestamp, long arrivalNanos) {
        if (!MILLIS.matcher(header).matches()) {
            return null;
        }
        long budgetMs = Math.max(0, Math.min(Long.parseLong(header) - timestamp, MAX_BUDGET.toMillis()));
        return new Deadline(arrivalNanos + Duration.ofMillis(budgetMs).toNanos());
    }

    private static PeerCall ignored(Context ctx, String why) {
        LOG.debug("Internal headers of {} {} ignored: {}", ctx.req().getMethod(), ctx.path(), why);
        return PeerCall.PUBLIC;
    }

    private static byte[] mac(ThreadLocal<Mac> key, String method, String path, String query, long timestamp,
                              String forwardedBy, String deadline, String replicaRead) {
        String signed = DOMAIN + '\n' + method + '\n' + path + '\n' + query + '\n' + timestamp + '\n' + forwardedBy
                + '\n' + deadline + '\n' + replicaRead;
        return key.get().doFinal(signed.getBytes(StandardCharsets.UTF_8));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static ThreadLocal<Mac> macOf(String secret) {
        SecretKeySpec key = new SecretKeySpec(hmac(new SecretKeySpec(KEY_LABEL, HMAC))
                .doFinal(secret.getBytes(StandardCharsets.UTF_8)), HMAC);
        return ThreadLocal.withInitial(() -> hmac(key));
    }

    private static Mac hmac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return "PeerHeaders[" + keys.size() + " key(s)]";
    }
}
