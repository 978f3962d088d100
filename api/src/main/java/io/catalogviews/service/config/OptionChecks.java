package io.catalogviews.service.config;

import java.util.regex.Pattern;

/**
 * Checks of option values at start, each failing with an {@link IllegalArgumentException} whose message names
 * the option, states the rule and shows the value, so that a bad configuration stops the instance before it
 * touches Kafka or the state directory.
 */
public final class OptionChecks {

    /** Legal Kafka topic names (also what Kafka allows in a group id prefix used for internal topics). */
    private static final Pattern KAFKA_NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern HOST_PORT = Pattern.compile(
            "([A-Za-z_]+://)?(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):[0-9]{1,5}");

    private OptionChecks() {
    }

    public static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be >= " + min + ", was " + value);
        }
    }

    public static void inRange(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be in " + min + ".." + max + ", was " + value);
        }
    }

    /** Application ids and topic names: Kafka's characters, 1..200 long. */
    public static void kafkaName(String option, String value) {
        if (value == null || !KAFKA_NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(option + " must be 1..200 characters of [A-Za-z0-9._-], was '"
                    + value + "'");
        }
    }

    /** {@code host:port[,host:port…]}; null or blank (absent) passes. */
    public static void bootstrapServers(String option, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        for (String server : value.split(",")) {
            String s = server.trim();
            if (!HOST_PORT.matcher(s).matches()) {
                throw new IllegalArgumentException(option + " must be host:port[,host:port…], but '" + s
                        + "' is not host:port");
            }
            int port = Integer.parseInt(s.substring(s.lastIndexOf(':') + 1));
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(option + ": port " + port + " of '" + s + "' is not in 1..65535");
            }
        }
    }
}
