package io.catalogviews.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.catalogviews.it.ServiceProcess;
import io.catalogviews.it.TestKafka;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's smoke test: {@code catalog-views bench --quick} on a tiny catalog, against the built executable
 * jar (started as a child JVM, as the harness always does) and the test JVM's broker, completes and its verifier
 * counts no wrong answer, the restore phase (restart on an empty state directory) included. It asserts nothing
 * about speed.
 */
@Tag("integration")
@Timeout(300)
class BenchSmokeIT {

    @Test
    void shouldCompleteQuickRunWithNoWrongAnswerWhenRunOnATinyCatalog() throws Exception {
        String appId = "bench-it-" + UUID.randomUUID().toString().substring(0, 8);
        Path output = Path.of("target", "bench-smoke", appId);
        int exit = new CommandLine(new BenchCommand()).execute(
                "--quick", "--products", "1500", "--updates", "500",
                "--duration", "1s", "--warmup", "500ms", "--concurrency", "4",
                "--churn-updates", "1000", "--freshness-rate", "200", "--freshness-duration", "2s",
                "--no-postgres",
                "--bootstrap-servers", TestKafka.bootstrapServers(),
                "--application-id", appId, "--input-topic", appId + ".product-events", "--partitions", "4",
                "--service-classpath", ServiceProcess.jar().toAbsolutePath().toString(),
                "--service-jvm-options", "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                "--rocksdb-memory-mb", "32",
                "--output-dir", output.toString());

        Path results;
        try (Stream<Path> runs = Files.list(output)) {
            results = runs.map(d -> d.resolve("results.json")).filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        JsonNode json = new ObjectMapper().readTree(results.toFile());
        assertThat(json.get("wrongAnswers").asLong()).as("wrong answers counted by the verifier").isZero();
        assertThat(exit).as("exit code of catalog-views bench").isZero();
        assertThat(json.get("queries")).isNotEmpty();
        for (JsonNode run : json.get("queries")) {
            assertThat(run.get("ok").asLong()).as("right answers of %s %s", run.get("target"), run.get("queryClass"))
                    .isPositive();
        }
        JsonNode restore = json.get("restore");
        assertThat(restore).as("restore phase").isNotNull();
        assertThat(restore.get("error")).as("restore error").isNull();
        assertThat(restore.get("restoreSeconds").asDouble()).isPositive();
        assertThat(restore.get("verification").get("right").asLong()).isPositive();
        assertThat(Files.exists(results.resolveSibling("summary.md"))).isTrue();
        assertThat(Files.exists(results.resolveSibling("throughput.svg"))).isTrue();
    }
}
