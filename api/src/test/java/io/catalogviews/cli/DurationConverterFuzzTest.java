package io.catalogviews.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Durations come from the operator's flags, environment and config file ({@code --compact-when-idle} and the other
 * duration options): whatever the text, the converter answers a positive duration (or zero where 0 is allowed) or
 * refuses it naming the text, and never fails otherwise.
 */
class DurationConverterFuzzTest {

    private static final List<String> PIECES = List.of("0", "1", "9", "10", "-", "+", " ", "s", "m", "h", "d", "P",
            "T", "S", "M", "H", "D", "PT", "P7D", "PT0.05S", ".", "e", "9223372036854775807", "\u0000", "٣", "\t");

    @Test
    void shouldAnswerAPositiveDurationZeroOrARefusalNamingTheTextWhenTheTextIsArbitrary() {
        SplittableRandom random = new SplittableRandom(20261205);
        DurationConverter.OrZero converter = new DurationConverter.OrZero();
        for (int i = 0; i < 20_000; i++) {
            String value = OptionTexts.next(random, PIECES);
            Duration converted;
            try {
                converted = converter.convert(value);
            } catch (CommandLine.TypeConversionException e) {
                assertThat(e.getMessage()).as("refusal of '%s'", value).contains("'" + value + "'");
                continue;
            }
            if (value.trim().equals("0")) {
                assertThat(converted).as("'%s'", value).isZero();
            } else {
                assertThat(converted).as("'%s'", value).isPositive();
            }
        }
    }
}
