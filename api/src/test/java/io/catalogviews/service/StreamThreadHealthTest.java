package io.catalogviews.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class StreamThreadHealthTest {

    private Instant now = Instant.parse("2026-12-01T10:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final StreamThreadHealth health = new StreamThreadHealth(clock, 3, Duration.ofMinutes(5));

    @Test
    void shouldStayHealthyWhenAThreadFailsOnce() {
        health.failed(new StreamsException("boom"));

        assertThat(health.failingRepeatedly()).isFalse();
        assertThat(health.problem()).isNull();
        assertThat(health.failures()).isEqualTo(1);
    }

    @Test
    void shouldNameTheRootCauseWhenThreadsFailRepeatedlyWithinTheWindow() {
        for (int i = 0; i < 3; i++) {
            health.failed(new StreamsException("task failed", new IllegalStateException("store closed " + i)));
            now = now.plusSeconds(30);
        }

        assertThat(health.failingRepeatedly()).isTrue();
        assertThat(health.problem()).contains("failed 3 times").contains("IllegalStateException: store closed 2");
    }

    @Test
    void shouldBeHealthyAgainWhenTheFailuresAgeOutOfTheWindow() {
        for (int i = 0; i < 3; i++) {
            health.failed(new StreamsException("boom"));
        }
        now = now.plus(Duration.ofMinutes(5)).plusSeconds(1);

        assertThat(health.failingRepeatedly()).isFalse();
        assertThat(health.failures()).as("the total still counts them").isEqualTo(3);
    }
}
