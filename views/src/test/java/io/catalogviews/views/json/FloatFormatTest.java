package io.catalogviews.views.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FloatFormatTest {

    /** Plain decimal notation: no exponent, no sign, no trailing zeros after the point, no bare point. */
    private static final Pattern PLAIN = Pattern.compile("0|[1-9][0-9]*|(0|[1-9][0-9]*)\\.[0-9]*[1-9]");
    private static final int SAMPLES = 20_000;

    @ParameterizedTest(name = "{0}f -> {1}")
    @CsvSource({
        "4.3, 4.3",
        "0.1, 0.1",
        "1e-7, 0.0000001",
        "5, 5",
        "4, 4",
        "4.5, 4.5",
        "0.5, 0.5",
        "3.14159, 3.14159",
        "1.4e-45, 0.000000000000000000000000000000000000000000001",
        "2.675, 2.675",
        "0.3, 0.3",
    })
    void shouldGiveTheShortestPlainDecimalWhenFormattingWellKnownFloats(float input, String expected) {
        assertThat(FloatFormat.shortest(input)).isEqualTo(expected);
    }

    @Test
    void shouldGiveZeroWhenFormattingPositiveOrNegativeZero() {
        assertThat(FloatFormat.shortest(0f)).isEqualTo("0");
        assertThat(FloatFormat.shortest(-0f)).isEqualTo("0");
    }

    @ParameterizedTest
    @ValueSource(floats = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY})
    void shouldRejectWithIllegalArgumentWhenTheFloatIsNotFinite(float input) {
        assertThatThrownBy(() -> FloatFormat.shortest(input)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldReadBackAsTheSameShortestDecimalWhenFormattingRandomBitPatternsUpToFive() {
        SplittableRandom random = new SplittableRandom(20261130L);
        int maxBits = Float.floatToIntBits(5f);
        List<Float> inputs = new ArrayList<>();
        for (int i = 0; i < SAMPLES / 5; i++) {
            inputs.add(Float.intBitsToFloat(random.nextInt(maxBits + 1)));
        }
        assertShortestRoundTrip(inputs);
    }

    @Test
    void shouldReadBackAsTheSameShortestDecimalWhenFormattingRandomRatingsUpToFive() {
        SplittableRandom random = new SplittableRandom(42L);
        List<Float> inputs = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            inputs.add((float) random.nextDouble(0.0, Math.nextUp(5.0)));
        }
        inputs.add(Math.nextDown(5f));
        inputs.add(Math.nextUp(0f));
        inputs.add(Math.nextUp(4.3f));
        inputs.add(Math.nextDown(4.3f));
        assertShortestRoundTrip(inputs);
    }

    @Test
    void shouldGiveBackTheDecimalWhenFormattingRatingsWithAtMostThreeDecimals() {
        List<String> failures = new ArrayList<>();
        for (int thousandths = 0; thousandths <= 5000; thousandths++) {
            BigDecimal decimal = BigDecimal.valueOf(thousandths, 3);
            String expected = decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString();
            String actual = FloatFormat.shortest(Float.parseFloat(decimal.toPlainString()));
            if (!actual.equals(expected)) {
                failures.add("rating " + decimal + " gave " + actual);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void shouldGiveTheShortestDecimalWhenFormattingPowersOfTwoUpToFive() {
        List<Float> inputs = new ArrayList<>();
        for (int exponent = -149; exponent <= 2; exponent++) {
            float power = (float) Math.scalb(1.0, exponent);
            inputs.add(power);
            inputs.add(Math.nextUp(power));
            inputs.add(Math.nextDown(power));
        }
        assertShortestRoundTrip(inputs);
    }

    private static void assertShortestRoundTrip(List<Float> inputs) {
        List<String> failures = new ArrayList<>();
        for (float input : inputs) {
            if (input <= 0f || input > 5f) {
                continue;
            }
            String text = FloatFormat.shortest(input);
            if (!PLAIN.matcher(text).matches()) {
                failures.add(input + " gave " + text + ", not a plain decimal");
            } else if (Float.parseFloat(text) != input) {
                failures.add(input + " gave " + text + ", which reads back as " + Float.parseFloat(text));
            } else {
                String shorter = shorterDecimalReadingBackAs(input, significantDigits(text));
                if (shorter != null) {
                    failures.add(input + " gave " + text + " but the shorter " + shorter + " reads back the same");
                }
            }
        }
        assertThat(failures).as("floats not formatted as their shortest plain decimal").isEmpty();
    }

    private static int significantDigits(String plain) {
        return new BigDecimal(plain).stripTrailingZeros().precision();
    }

    /**
     * A decimal of fewer than {@code digits} significant digits that reads back as {@code f}, or null. For each
     * length, only the decimals just below and just above {@code f} can be in its rounding interval.
     */
    private static String shorterDecimalReadingBackAs(float f, int digits) {
        BigDecimal exact = new BigDecimal(f);
        for (int d = 1; d < digits; d++) {
            for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal candidate = exact.round(new MathContext(d, mode));
                if (candidate.floatValue() == f) {
                    return candidate.toPlainString();
                }
            }
        }
        return null;
    }
}
