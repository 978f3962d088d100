package io.catalogviews.service.config;

/**
 * The secrets a deployment shares: the cluster secret, which signs the internal headers of requests between
 * instances ({@code --cluster-secret}), and the cursor secret, which authenticates listing cursors
 * ({@code --cursor-secret}, by default the cluster secret). Each has a previous value, still accepted during one
 * rotation ({@code --previous-cluster-secret}, {@code --previous-cursor-secret}). Every instance of a deployment
 * must be given the same values.
 *
 * <p>Without {@code --cluster-secret} the secret is derived from the application id: instances agree without
 * configuration, but anyone who knows the application id can sign internal headers, so the service logs a warning
 * ({@link #clusterSecretDerived()}). Never printed: {@link #toString()} says only which are set.
 *
 * @param clusterSecret         null: derived from the application id
 * @param previousClusterSecret accepted besides the cluster secret, or null
 * @param cursorSecret          null: the cluster secret
 * @param previousCursorSecret  cursors made with it stay valid, or null (then, when {@code cursorSecret} is null,
 *                              the previous cluster secret)
 */
public record SecretsConfig(String clusterSecret, String previousClusterSecret, String cursorSecret,
                            String previousCursorSecret) {

    /** The shortest secret accepted: a guessable secret is worse than none, since it looks like protection. */
    public static final int MIN_LENGTH = 16;
    public static final String CLUSTER_SECRET = "--cluster-secret";
    public static final String PREVIOUS_CLUSTER_SECRET = "--previous-cluster-secret";
    public static final String CURSOR_SECRET = "--cursor-secret";
    public static final String PREVIOUS_CURSOR_SECRET = "--previous-cursor-secret";

    /** Nothing configured: the cluster secret is derived from the application id and signs cursors too. */
    public static SecretsConfig none() {
        return new SecretsConfig(null, null, null, null);
    }

    /**
     * The secrets as given (null or empty: not given).
     *
     * @throws IllegalArgumentException naming the option when a current secret is shorter than {@value #MIN_LENGTH}
     *                                  characters, or any secret holds whitespace or control characters. A previous
     *                                  secret may be shorter: it is being retired (it may be the application id).
     */
    public static SecretsConfig of(String clusterSecret, String previousClusterSecret, String cursorSecret,
                                   String previousCursorSecret) {
        return new SecretsConfig(checked(CLUSTER_SECRET, clusterSecret, MIN_LENGTH),
                checked(PREVIOUS_CLUSTER_SECRET, previousClusterSecret, 1),
                checked(CURSOR_SECRET, cursorSecret, MIN_LENGTH),
                checked(PREVIOUS_CURSOR_SECRET, previousCursorSecret, 1));
    }

    /** Whether no cluster secret is configured, so it is derived from the application id (warn about it). */
    public boolean clusterSecretDerived() {
        return clusterSecret == null;
    }

    /** The secret that signs requests between instances. */
    public String effectiveClusterSecret(String applicationId) {
        return clusterSecret != null ? clusterSecret : applicationId;
    }

    /** The secret that authenticates cursors made now. */
    public String effectiveCursorSecret(String applicationId) {
        return cursorSecret != null ? cursorSecret : effectiveClusterSecret(applicationId);
    }

    /** The secret whose cursors are still accepted, or null. */
    public String effectivePreviousCursorSecret() {
        return previousCursorSecret != null ? previousCursorSecret : cursorSecret == null ? previousClusterSecret
                : null;
    }

    private static String checked(String option, String value, int minLength) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.length() < minLength) {
            throw new IllegalArgumentException(option + " must be at least " + minLength + " characters long");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                throw new IllegalArgumentException(option + " must not contain spaces or control characters");
            }
        }
        return value;
    }

    @Override
    public String toString() {
        return "SecretsConfig[cluster " + (clusterSecret == null ? "derived" : "set") + ", previous cluster "
                + set(previousClusterSecret) + ", cursor " + (cursorSecret == null ? "cluster's" : "set")
                + ", previous cursor " + set(previousCursorSecret) + "]";
    }

    private static String set(String value) {
        return value == null ? "none" : "set";
    }
}
