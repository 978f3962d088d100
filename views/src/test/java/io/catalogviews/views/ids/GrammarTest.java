package io.catalogviews.views.ids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The id and category checks are hand-written loops (they run on every read and every event); the contract's
 * grammars, as regular expressions, are the reference they must agree with on any text.
 */
class GrammarTest {

    /** Outside both grammars: ASCII neighbours of their ranges, controls, non-ASCII letters, a surrogate pair. */
    private static final String OUTSIDERS = "/`{@[!#%+, \t\u0000\u007f\u00e9\u0130\u212a\ud83d\ude00";

    @Test
    void shouldAgreeWithTheProductIdGrammarWhenTextsAreRandom() {
        assertAgrees(ProductId.GRAMMAR, ProductId::isValid, "azAZ09.-_:~", 0x1d5L, 140);
    }

    @Test
    void shouldAgreeWithTheCategoryGrammarWhenTextsAreRandom() {
        assertAgrees(CategoryName.GRAMMAR, CategoryName::isValid, "az09-", 0xca7L, 70);
    }

    @Test
    void shouldRejectTextsAtTheLengthBoundsWhenOneCharacterTooLong() {
        assertThat(ProductId.isValid("a".repeat(128))).isTrue();
        assertThat(ProductId.isValid("a".repeat(129))).isFalse();
        assertThat(ProductId.isValid("")).isFalse();
        assertThat(CategoryName.isValid("a".repeat(64))).isTrue();
        assertThat(CategoryName.isValid("a".repeat(65))).isFalse();
        assertThat(CategoryName.isValid("-phones")).isFalse();
        assertThatThrownBy(() -> new ProductId("a/b")).hasMessageContaining(ProductId.GRAMMAR).hasMessageContaining("a/b");
    }

    private static void assertAgrees(String grammar, Predicate<String> check, String inside, long seed,
                                     int maxLength) {
        Pattern reference = Pattern.compile(grammar);
        SplittableRandom random = new SplittableRandom(seed);
        SoftAssertions soft = new SoftAssertions();
        int valid = 0;
        for (int i = 0; i < 200_000; i++) {
            String text = randomText(random, inside, maxLength);
            boolean expected = reference.matcher(text).matches();
            valid += expected ? 1 : 0;
            soft.assertThat(check.test(text)).as("'%s' against %s", text, grammar).isEqualTo(expected);
        }
        soft.assertThat(check.test(null)).as("null").isFalse();
        soft.assertAll();
        // Both outcomes must be common, or the comparison proves little.
        assertThat(valid).as("valid texts among 200 000").isBetween(10_000, 190_000);
    }

    /** Two texts in three from the grammar's own characters (length decides), the rest with outsiders mixed in. */
    private static String randomText(SplittableRandom random, String inside, int maxLength) {
        int length = random.nextInt(maxLength + 1);
        String alphabet = random.nextInt(3) > 0 ? inside : inside + OUTSIDERS;
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
