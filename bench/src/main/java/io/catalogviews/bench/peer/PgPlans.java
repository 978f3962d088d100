package io.catalogviews.bench.peer;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code plan_cache_mode} each query class runs with: {@code auto} (PostgreSQL's default: after five custom
 * plans a prepared statement switches to a generic plan when its estimated cost is not higher) or
 * {@code force_custom_plan} (plan every execution for its parameters: a generic plan of a listing query can pick an
 * index that is right for a small category and slow for a large one). Chosen per class by measurement
 * ({@code PostgresTuning}); classes not named run with {@code auto}.
 */
public record PgPlans(Map<String, String> modes) {

    public static final String AUTO = "auto";
    public static final String CUSTOM = "force_custom_plan";

    public PgPlans {
        modes = Map.copyOf(modes);
        modes.values().forEach(PgPlans::requireMode);
    }

    public static PgPlans defaults() {
        return new PgPlans(Map.of());
    }

    public String modeOf(String queryClass) {
        return modes.getOrDefault(queryClass, AUTO);
    }

    /** These modes with {@code queryClass} in {@code mode}. */
    public PgPlans with(String queryClass, String mode) {
        Map<String, String> m = new TreeMap<>(modes);
        m.put(queryClass, requireMode(mode));
        return new PgPlans(m);
    }

    /** {@code class:mode,class:mode} (the form the PostgreSQL HTTP front is told). */
    public String text() {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(modes).forEach((c, m) -> b.append(b.length() == 0 ? "" : ",").append(c).append(':').append(m));
        return b.toString();
    }

    public static PgPlans parse(String text) {
        Map<String, String> m = new TreeMap<>();
        if (text != null && !text.isBlank()) {
            for (String pair : text.split(",")) {
                int colon = pair.indexOf(':');
                if (colon < 1) {
                    throw new IllegalArgumentException("plan modes: expected class:mode, got " + pair);
                }
                m.put(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
            }
        }
        return new PgPlans(m);
    }

    private static String requireMode(String mode) {
        if (!mode.equals(AUTO) && !mode.equals(CUSTOM)) {
            throw new IllegalArgumentException("plan_cache_mode must be " + AUTO + " or " + CUSTOM + ", was " + mode);
        }
        return mode;
    }
}
