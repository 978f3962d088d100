package io.catalogviews.cli;

import java.util.List;
import java.util.SplittableRandom;

/** Seeded option values for the converters' fuzz tests: a few pieces of near-valid text and stray printable characters. */
final class OptionTexts {

    private OptionTexts() {
    }

    /** Up to five parts, each one of {@code pieces} or (one in six) any printable ASCII character. */
    static String next(SplittableRandom random, List<String> pieces) {
        StringBuilder text = new StringBuilder();
        int parts = random.nextInt(6);
        for (int p = 0; p < parts; p++) {
            text.append(random.nextInt(6) == 0 ? (char) random.nextInt(0x20, 0x7f)
                    : pieces.get(random.nextInt(pieces.size())));
        }
        return text.toString();
    }
}
