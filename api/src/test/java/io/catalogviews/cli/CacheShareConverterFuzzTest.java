package io.catalogviews.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --product-view-cache-share} comes from the operator's flag, environment or config file: whatever the text, the
 * converter answers a share from 0 to the maximum or refuses it naming the text, and never fails otherwise.
 */
class CacheShareConverterFuzzTest {

    private static final List<String> PIECES = List.of("0", "1", "4", "7", "9", ".", "-", "+", " ", "e", "E", "x", "p",
            "NaN", "Infinity", "d", "f", "0.4", "1e-400", "\u0000", "٣", "\t");

    @Test
    void shouldAnswerAShareInRangeOrARefusalNamingTheTextWhenTheTextIsArbitrary() {
        SplittableRandom random = new SplittableRandom(20261205);
        CacheShareConverter converter = new CacheShareConverter();
        for (int i = 0; i < 20_000; i++) {
            String value = OptionTexts.next(random, PIECES);
            try {
                assertThat(converter.convert(value)).as("share from '%s'", value)
                        .isBetween(0.0, BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_CACHE_SHARE);
            } catch (CommandLine.TypeConversionException e) {
                assertThat(e.getMessage()).as("refusal of '%s'", value).contains("'" + value + "'");
            }
        }
    }
}
