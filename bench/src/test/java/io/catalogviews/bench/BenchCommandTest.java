package io.catalogviews.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

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

    @Test
    void shouldSetTheServiceEnvironmentWhenServiceEnvIsGiven() {
        assertThat(settings().serviceEnvironment()).as("the harness's own environment by default").isEmpty();
        assertThat(settings("--service-env", "GLIBC_TUNABLES=glibc.malloc.hugetlb=1,MALLOC_ARENA_MAX=")
                .serviceEnvironment())
                .as("the value keeps its own '=', an empty value is kept (it removes the variable)")
                .containsExactly(entry("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1"), entry("MALLOC_ARENA_MAX", ""));
    }

    @Test
    void shouldRefuseAnEntryNamingTheOptionWhenItIsNotNameEqualsValue() {
        for (String bad : List.of("GLIBC_TUNABLES", "=1", "1X=2", "A-B=1", " A=1", "A=1,A=2", "A=x\u0000y")) {
            assertThatThrownBy(() -> settings("--service-env", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--service-env");
        }
    }

    @Test
    void shouldEitherKeepOrRefuseEveryEntryWhenEntriesAreRandom() {
        Random random = new Random(20261204);
        String alphabet = "AZaz_09=,-. :\"\u00e9\u0000";
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            Map<String, String> environment;
            try {
                environment = BenchCommand.environment(List.of(text.toString()));
            } catch (IllegalArgumentException refused) {
                assertThat(refused).as(text.toString()).hasMessageContaining("--service-env");
                continue;
            }
            assertThat(environment).as(text.toString()).hasSize(1);
            String name = environment.keySet().iterator().next();
            assertThat(name).matches("[A-Za-z_][A-Za-z0-9_]*");
            assertThat(name + "=" + environment.get(name)).isEqualTo(text.toString()).doesNotContain("\u0000");
        }
    }
}
