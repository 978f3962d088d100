package io.catalogviews.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: every line must be a
 * {@code # HELP}, {@code # TYPE}, another comment, blank, or a sample {@code name{label="value",…} value
 * [timestamp]} of a family declared by an earlier {@code # TYPE}. A malformed line fails with its number.
 */
public final class PrometheusText {

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_created", "_total", "_info");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;
    private final Map<String, String> types;

    private PrometheusText(List<Sample> samples, Map<String, String> types) {
        this.samples = samples;
        this.types = types;
    }

    /** @throws IllegalArgumentException naming the first malformed line */
    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int number = i + 1;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (parts.length >= 2 && parts[1].equals("TYPE")) {
                    if (parts.length != 4 || !METRIC_NAME.matcher(parts[2]).matches() || !TYPES.contains(parts[3])) {
                        throw new IllegalArgumentException("line " + number + ": malformed TYPE: " + line);
                    }
                    if (types.put(parts[2], parts[3]) != null) {
                        throw new IllegalArgumentException("line " + number + ": second TYPE for " + parts[2]);
                    }
                } else if (parts.length >= 2 && parts[1].equals("HELP")
                        && (parts.length < 3 || !METRIC_NAME.matcher(parts[2]).matches())) {
                    throw new IllegalArgumentException("line " + number + ": malformed HELP: " + line);
                }
                continue;
            }
            Sample sample = sample(line, number);
            if (family(sample.name(), types) == null) {
                throw new IllegalArgumentException("line " + number + ": sample of undeclared family: " + line);
            }
            samples.add(sample);
        }
        return new PrometheusText(samples, types);
    }

    private static String family(String name, Map<String, String> types) {
        if (types.containsKey(name)) {
            return name;
        }
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    private static Sample sample(String line, int number) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        if (!METRIC_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("line " + number + ": bad metric name: " + line);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                if (eq < 0) {
                    throw new IllegalArgumentException("line " + number + ": bad labels: " + line);
                }
                String label = line.substring(i, eq);
                if (!LABEL_NAME.matcher(label).matches() || line.charAt(eq + 1) != '"') {
                    throw new IllegalArgumentException("line " + number + ": bad label '" + label + "': " + line);
                }
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                for (; line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                }
                if (labels.put(label, value.toString()) != null) {
                    throw new IllegalArgumentException("line " + number + ": repeated label " + label);
                }
                i = j + 1;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            i++;
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            throw new IllegalArgumentException("line " + number + ": no value: " + line);
        }
        String[] rest = line.substring(i + 1).split(" ");
        if (rest.length < 1 || rest.length > 2) {
            throw new IllegalArgumentException("line " + number + ": bad value: " + line);
        }
        double value;
        try {
            value = switch (rest[0]) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> Double.parseDouble(rest[0]);
            };
            if (rest.length == 2) {
                Long.parseLong(rest[1]);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line " + number + ": bad number: " + line, e);
        }
        return new Sample(name, labels, value);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The declared type of a family ({@code counter}, {@code histogram} …), or null. */
    public String type(String family) {
        return types.get(family);
    }

    /** The samples named {@code name} whose labels include all of {@code labels}. */
    public List<Sample> find(String name, Map<String, String> labels) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
                out.add(s);
            }
        }
        return out;
    }

    /** The one sample named {@code name} with exactly these labels (ignoring none), or fails. */
    public double value(String name, Map<String, String> labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + labels + ", found " + found);
        }
        return found.get(0).value();
    }

    /** The sum over the samples named {@code name} whose labels include {@code labels} (0 when none). */
    public double sum(String name, Map<String, String> labels) {
        return find(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    /** Distinct values of {@code label} over the samples named {@code name}. */
    public Set<String> labelValues(String name, String label) {
        Map<String, Boolean> values = new HashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().containsKey(label)) {
                values.put(s.labels().get(label), Boolean.TRUE);
            }
        }
        return values.keySet();
    }
}
