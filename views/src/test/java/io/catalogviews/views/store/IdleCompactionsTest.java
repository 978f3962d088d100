package io.catalogviews.views.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The idle time read from the Streams properties an operator sets (flag, environment, file, --streams-config). */
class IdleCompactionsTest {

    private static final long SEED = 20261205L;

    @Test
    void shouldReadTheIdleTimeInMillisecondsWhenItIsSetAsTextOrNumber() {
        assertThat(IdleCompactions.idleAfter(Map.of())).isEqualTo(IdleCompactions.DEFAULT_IDLE_AFTER);
        assertThat(IdleCompactions.idleAfter(Map.of(IdleCompactions.IDLE_AFTER_MS_CONFIG, " 2500 ")))
                .isEqualTo(Duration.ofMillis(2500));
        assertThat(IdleCompactions.idleAfter(Map.of(IdleCompactions.IDLE_AFTER_MS_CONFIG, 0))).isZero();
    }

    @Test
    void shouldRefuseNamingTheKeyWhenTheIdleTimeIsNegativeOrNotANumber() {
        for (String bad : new String[] {"-1", "10s", "", "1e3", "9223372036854775808"}) {
            assertThatThrownBy(() -> IdleCompactions.idleAfter(Map.of(IdleCompactions.IDLE_AFTER_MS_CONFIG, bad)))
                    .as("value '%s'", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(IdleCompactions.IDLE_AFTER_MS_CONFIG);
        }
    }

    /** Seeded fuzz: any text is either a non-negative number of milliseconds read as such, or refused by name. */
    @Test
    void shouldReadOrRefuseByNameWhenTheIdleTimeIsAnyText() {
        Random random = new Random(SEED);
        String alphabet = "0123456789-+ .eE\\u0000x٣";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(22);
            for (int c = 0; c < length; c++) {
                text.append(random.nextInt(8) == 0 ? (char) random.nextInt(0x3000)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = text.toString();
            Long expected = parse(value);
            if (expected == null) {
                assertThatThrownBy(() -> IdleCompactions.idleAfter(Map.of(IdleCompactions.IDLE_AFTER_MS_CONFIG, value)))
                        .as("value '%s'", value).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(IdleCompactions.IDLE_AFTER_MS_CONFIG);
            } else {
                assertThat(IdleCompactions.idleAfter(Map.of(IdleCompactions.IDLE_AFTER_MS_CONFIG, value)))
                        .as("value '%s'", value).isEqualTo(Duration.ofMillis(expected));
            }
        }
    }

    @Test
    void shouldWarmCompactedPartitionsUnlessTurnedOffWhenTheSwitchIsTrueOrFalse() {
        assertThat(IdleCompactions.warmAfterCompaction(Map.of())).as("default").isTrue();
        assertThat(IdleCompactions.warmAfterCompaction(Map.of(IdleCompactions.WARM_AFTER_COMPACTION_CONFIG, " FALSE ")))
                .isFalse();
        assertThat(IdleCompactions.warmAfterCompaction(Map.of(IdleCompactions.WARM_AFTER_COMPACTION_CONFIG, true)))
                .isTrue();
    }

    /** Seeded fuzz: any text other than true or false (any case, trimmed) is refused by name. */
    @Test
    void shouldRefuseByNameWhenTheWarmingSwitchIsAnyOtherText() {
        Random random = new Random(SEED);
        String alphabet = "truefalsTRUEFALS 01yn\u0000";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(8);
            for (int c = 0; c < length; c++) {
                text.append(random.nextInt(10) == 0 ? (char) random.nextInt(0x3000)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = text.toString();
            Map<String, String> properties = Map.of(IdleCompactions.WARM_AFTER_COMPACTION_CONFIG, value);
            String trimmed = value.trim();
            if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
                assertThat(IdleCompactions.warmAfterCompaction(properties)).as("value '%s'", value)
                        .isEqualTo(trimmed.equalsIgnoreCase("true"));
            } else {
                assertThatThrownBy(() -> IdleCompactions.warmAfterCompaction(properties)).as("value '%s'", value)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(IdleCompactions.WARM_AFTER_COMPACTION_CONFIG);
            }
        }
    }

    @Test
    void shouldRefuseANegativeIdleTimeWhenStarted() {
        assertThatThrownBy(() -> IdleCompactions.start(Duration.ofMillis(-1), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idle");
    }

    /** The model: trimmed decimal digits with an optional sign, a long, not negative. */
    private static Long parse(String value) {
        String trimmed = value.trim();
        if (!trimmed.matches("[+-]?\\p{Nd}+")) {
            return null;
        }
        try {
            long millis = Long.parseLong(trimmed);
            return millis < 0 ? null : millis;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
