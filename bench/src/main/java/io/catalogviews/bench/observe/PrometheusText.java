package io.catalogviews.bench.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The samples of a Prometheus text exposition ({@code GET /metrics}): one per line {@code name{labels} value
 * [timestamp]}, comments and blank lines skipped. Labels are kept as their raw text; values as doubles
 * ({@code NaN}, {@code +Inf} included).
 */
public final class PrometheusText {

    /** One sample line. */
    public record Sample(String name, String labels, double value) {
    }

    private PrometheusText() {
    }

    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int brace = l.indexOf('{');
            int space = l.indexOf(' ');
            String name;
            String labels = "";
            String rest;
            if (brace >= 0 && (space < 0 || brace < space)) {
                int close = l.lastIndexOf('}');
                if (close < brace) {
                    continue;
                }
                name = l.substring(0, brace);
                labels = l.substring(brace + 1, close);
                rest = l.substring(close + 1).strip();
            } else if (space > 0) {
                name = l.substring(0, space);
                rest = l.substring(space + 1).strip();
            } else {
                continue;
            }
            String value = rest.split("\\s+")[0];
            try {
                samples.add(new Sample(name, labels, parseValue(value)));
            } catch (NumberFormatException e) {
                // not a sample line this parser knows: skipped, the others still count
            }
        }
        return samples;
    }

    private static double parseValue(String v) {
        return switch (v) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(v);
        };
    }

    /** Sum of the finite values of every sample named {@code name}. */
    public static double sum(List<Sample> samples, String name) {
        return sum(samples, name, labels -> true);
    }

    /** Sum of the finite values of every sample named {@code name} whose raw label text {@code labels} accepts. */
    public static double sum(List<Sample> samples, String name, Predicate<String> labels) {
        double total = 0;
        for (Sample s : samples) {
            if (s.name().equals(name) && labels.test(s.labels()) && Double.isFinite(s.value())) {
                total += s.value();
            }
        }
        return total;
    }
}
