package io.catalogviews.service.config;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code --config <file>} properties file: keys are the option names without the leading dashes
 * ({@code http-port=8081}), values as on the command line; a map option takes one key per entry
 * ({@code streams-config.session.timeout.ms=6000}). It ranks below flags and environment variables and above
 * the built-in defaults. Unknown keys are refused, naming the key and the file. Immutable.
 */
public final class ConfigFile {

    public static final String OPTION = "--config";
    private static final ConfigFile EMPTY = new ConfigFile(Map.of(), null);

    private final Map<String, String> values;
    private final Path source;

    private ConfigFile(Map<String, String> values, Path source) {
        this.values = values;
        this.source = source;
    }

    public static ConfigFile empty() {
        return EMPTY;
    }

    /** @throws IllegalArgumentException naming {@value #OPTION} when the file cannot be read */
    public static ConfigFile load(Path file) {
        if (file == null) {
            return EMPTY;
        }
        Map<String, String> values = PropertiesFiles.read(file, OPTION);
        return new ConfigFile(Map.copyOf(values), file);
    }

    /** The value of {@code key}, or null. */
    public String get(String key) {
        return values.get(key);
    }

    /** The entries under {@code prefix}, with the prefix removed, for a map option. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                out.put(key.substring(prefix.length()), value);
            }
        });
        return out;
    }

    /**
     * @param names       keys of single-valued options
     * @param mapPrefixes key prefixes of map options ({@code streams-config.})
     * @throws IllegalArgumentException naming the first unknown key and the file
     */
    public void requireKnown(Collection<String> names, Collection<String> mapPrefixes) {
        for (String key : values.keySet()) {
            boolean known = names.contains(key) || mapPrefixes.stream().anyMatch(p -> key.startsWith(p)
                    && key.length() > p.length());
            if (!known) {
                throw new IllegalArgumentException(OPTION + " " + source + ": unknown option '" + key
                        + "'; known: " + String.join(", ", new TreeSet<>(names))
                        + (mapPrefixes.isEmpty() ? "" : ", " + String.join(", ", mapPrefixes.stream()
                        .map(p -> p + "<property>").toList())));
            }
        }
    }

    public Path source() {
        return source;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }
}
