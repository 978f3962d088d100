package io.catalogviews.bench.results;

import java.util.Arrays;
import java.util.Collection;

/** Median and range of repeated measurements ({@code --runs}). */
public final class Stats {

    private Stats() {
    }

    /** The median (the mean of the two middle values of an even count); NaN for none. */
    public static double median(Collection<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    public static double min(Collection<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    public static double max(Collection<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
