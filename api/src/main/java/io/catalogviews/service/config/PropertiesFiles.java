package io.catalogviews.service.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Reads a UTF-8 properties file given by an option, with errors that name the option and the file. */
final class PropertiesFiles {

    private PropertiesFiles() {
    }

    /**
     * @return the file's keys and values, trimmed, sorted by key
     * @throws IllegalArgumentException naming {@code option} when the file cannot be read
     */
    static Map<String, String> read(Path file, String option) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(option + ": cannot read " + file.toAbsolutePath()
                    + " (no such readable file)");
        }
        Properties loaded = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            loaded.load(in);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": cannot read " + file.toAbsolutePath() + ": "
                    + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        loaded.stringPropertyNames().forEach(key -> values.put(key.trim(), loaded.getProperty(key).trim()));
        return values;
    }
}
