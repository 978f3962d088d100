package io.catalogviews.views.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Decimal text of floats as the contract wants it. */
public final class FloatFormat {

    private static final RoundingMode[] MODES = {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING};

    private FloatFormat() {
    }

    /**
     * The shortest plain decimal that reads back as the same 32-bit float ({@code 4.3f} gives "4.3", not
     * "4.300000190734863"; {@code 4f} gives "4"). Java 17's {@code Float.toString} is not always the
     * shortest (JDK-4511638, fixed in 19), so the digits are searched from 1 up.
     *
     * @throws IllegalArgumentException for NaN and infinities, which JSON cannot carry
     */
    public static String shortest(float f) {
        if (!Float.isFinite(f)) {
            throw new IllegalArgumentException("not a finite float: " + f);
        }
        if (f == 0f) {
            return "0";
        }
        BigDecimal exact = new BigDecimal(f);
        for (int digits = 1; digits <= 9; digits++) {
            // Near a power of two the interval that reads back is lopsided, so the nearest rounding can miss
            // a shorter decimal on the wider side: try both directions too.
            for (RoundingMode mode : MODES) {
                BigDecimal candidate = exact.round(new MathContext(digits, mode));
                if (candidate.floatValue() == f) {
                    return candidate.stripTrailingZeros().toPlainString();
                }
            }
        }
        return exact.round(new MathContext(9)).stripTrailingZeros().toPlainString();
    }
}
