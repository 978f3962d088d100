package io.catalogviews.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchCommandTest {

    private static BenchSettings settings(String... args) {
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void shouldRestoreByDefaultWhenNoOptionIsGiven() {
        assertThat(settings().restore()).isTrue();
        assertThat(settings("--quick").restore()).isTrue();
    }

    @Test
    void shouldSkipRestoreWhenNoRestoreIsGiven() {
        assertThat(settings("--no-restore").restore()).isFalse();
        assertThat(settings("--quick", "--no-restore").restore()).isFalse();
    }

    @Test
    void shouldRestoreWhenRestoreIsGiven() {
        assertThat(settings("--restore").restore()).isTrue();
    }

    @Test
    void shouldStartTheServiceFromTheLaunchersJarWhenNoServiceClassPathIsGiven() {
        String before = System.getProperty(BenchCommand.SERVICE_JAR_PROPERTY);
        System.setProperty(BenchCommand.SERVICE_JAR_PROPERTY, "/opt/catalog-views.jar");
        try {
            assertThat(settings().serviceClassPath()).isEqualTo("/opt/catalog-views.jar");
            assertThat(settings("--service-classpath", "/tmp/old.jar").serviceClassPath()).isEqualTo("/tmp/old.jar");
            assertThat(settings().harnessClassPath()).as("the servers beside the service run from the harness")
                    .isEqualTo(System.getProperty("java.class.path"));
        } finally {
            if (before == null) {
                System.clearProperty(BenchCommand.SERVICE_JAR_PROPERTY);
            } else {
                System.setProperty(BenchCommand.SERVICE_JAR_PROPERTY, before);
            }
        }
    }

    @Test
    void shouldStartTheBrokerWithTheGivenJvmOptionsElseKafkasOwnOrTheTestBrokersWhenQuick() {
        assertThat(settings().brokerJvmOptions())
                .isEqualTo(io.catalogviews.broker.ChildProcessKafkaBroker.KAFKA_SCRIPT_JVM_OPTIONS);
        assertThat(settings("--quick").brokerJvmOptions())
                .isEqualTo(io.catalogviews.broker.ChildProcessKafkaBroker.DEFAULT_JVM_OPTIONS);
        assertThat(settings("--broker-jvm-options", " -Xmx512m  -XX:+UseSerialGC ").brokerJvmOptions())
                .containsExactly("-Xmx512m", "-XX:+UseSerialGC");
    }

    @Test
    void shouldKeepPostgresNegatableBesideRestore() {
        assertThat(settings("--no-postgres", "--restore").postgres()).isFalse();
        assertThat(settings("--no-postgres", "--restore").restore()).isTrue();
    }

    @Test
    void shouldRunEachFigureThreeTimesInTheFullProfileAndOnceWhenQuick() {
        assertThat(settings().runs()).isEqualTo(3);
        assertThat(settings("--quick").runs()).isEqualTo(1);
        assertThat(settings("--quick", "--runs", "2").runs()).isEqualTo(2);
    }

    @Test
    void shouldRefuseRunsOutsideTheirRangeWhenGiven() {
        assertThatThrownBy(() -> settings("--runs", "0")).hasMessageContaining("--runs");
        assertThatThrownBy(() -> settings("--postgres-pools", "0")).hasMessageContaining("--postgres-pools");
    }

    @Test
    void shouldMeasurePoolsSizedForTwoCoresAndReadAtFiveHundredPerSecondWhenNothingIsSaid() {
        assertThat(settings().postgresPools()).containsExactly(2, 4, 8);
        assertThat(settings("--postgres-pools", "4").postgresPools()).containsExactly(4);
        assertThat(settings().freshnessReadRate()).isEqualTo(500);
        assertThat(settings("--freshness-read-rate", "0").freshnessReadRate()).isZero();
    }

    @Test
    void shouldWarmUpTheChangePathBeforeFreshnessWhenTheProfileIsFull() {
        assertThat(settings().freshnessWarmup()).hasSeconds(30);
        assertThat(settings("--quick").freshnessWarmup()).isZero();
        assertThat(settings("--freshness-warmup", "30s").freshnessWarmup()).hasSeconds(30);
        assertThat(settings("--freshness-warmup", "0s").freshnessWarmup()).isZero();
        assertThatThrownBy(() -> settings("--freshness-warmup", "-5s")).hasMessageContaining("--freshness-warmup");
    }
}
