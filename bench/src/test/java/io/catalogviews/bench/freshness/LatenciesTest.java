package io.catalogviews.bench.freshness;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class LatenciesTest {

    private static final long T0 = Instant.parse("2026-12-03T16:00:00Z").toEpochMilli();

    @Test
    void shouldNameTheSlowestFirstWithTheirAcknowledgementWhenAskedForFewerThanRecorded() {
        Latencies latencies = new Latencies();
        Random random = new Random(42);
        long[] nanos = new long[500];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (1 + random.nextInt(2_000)) * 1_000_000L;
            latencies.add(nanos[i], T0 + i);
        }

        List<Latencies.Slow> slowest = latencies.slowest(5);

        long[] sorted = latencies.sorted();
        assertThat(slowest).hasSize(5);
        for (int k = 0; k < 5; k++) {
            Latencies.Slow slow = slowest.get(k);
            assertThat(slow.ms()).isEqualTo(sorted[sorted.length - 1 - k] / 1e6);
            int i = (int) (slow.ackedAtEpochMillis() - T0);
            assertThat(nanos[i] / 1e6).as("the latency recorded with acknowledgement %d", i).isEqualTo(slow.ms());
        }
    }

    @Test
    void shouldNameEveryLatencyWhenFewerAreRecordedThanAsked() {
        Latencies latencies = new Latencies();
        latencies.add(3_000_000, T0);
        latencies.add(9_000_000, T0 + 250);

        assertThat(latencies.slowest(5))
                .containsExactly(new Latencies.Slow(T0 + 250, 9.0), new Latencies.Slow(T0, 3.0));
        assertThat(new Latencies().slowest(5)).isEmpty();
    }

    @Test
    void shouldDateALatencyMeasuredNowByItsAcknowledgementWhenGivenOnlyItsLength() {
        Latencies latencies = new Latencies();
        long before = System.currentTimeMillis();
        latencies.add(2_000_000_000L);
        long after = System.currentTimeMillis();

        assertThat(latencies.slowest(1).get(0).ackedAtEpochMillis()).isBetween(before - 2_000, after - 2_000);
    }

    @Test
    void shouldShowTheAcknowledgementInUtcAndTheLatencyInMillisecondsWhenLogged() {
        String line = FreshnessRun.slowestLine("product view",
                List.of(new Latencies.Slow(T0 + 1_250, 920.4), new Latencies.Slow(T0 + 61_000, 880.6)));

        assertThat(line).isEqualTo("  slowest product view probes (acknowledged, UTC → visible after): "
                + "16:00:01.250 920 ms, 16:01:01.000 881 ms");
        assertThat(FreshnessRun.slowestLine("category pages", List.of())).endsWith("after): none");
    }
}
