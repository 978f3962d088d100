package io.catalogviews.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two executable jars as {@code package} builds them (failsafe runs after it): the service's
 * ({@code api/target/catalog-views.jar}) holds neither the harness nor the PostgreSQL driver, which live only in the
 * harness's own jar ({@code bench/target/catalog-views-bench.jar}), and that jar starts {@code bench}.
 */
@Tag("integration")
@Timeout(120)
class PackagedJarsIT {

    private static final List<String> HARNESS_ONLY = List.of("io/catalogviews/bench/", "org/postgresql/");

    @Test
    void shouldLeaveTheHarnessAndThePostgresDriverOutWhenTheServiceJarIsPackaged() throws IOException {
        List<String> entries = entries(jar("catalogViews.serviceJar"));

        assertThat(entries).as("the service's entry point").contains("io/catalogviews/cli/CatalogViewsCli.class");
        assertThat(entries.stream().filter(e -> HARNESS_ONLY.stream().anyMatch(e::startsWith)))
                .as("entries of the service jar under %s", HARNESS_ONLY).isEmpty();
    }

    @Test
    void shouldHoldTheHarnessTheDriverAndTheServiceWhenTheBenchJarIsPackaged() throws IOException {
        Path jar = jar("catalogViews.benchJar");
        List<String> entries = entries(jar);

        assertThat(entries).contains("io/catalogviews/bench/BenchRun.class", "org/postgresql/Driver.class",
                "io/catalogviews/cli/EventPublisher.class", "io/catalogviews/bench/scripts/postgres.sh");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(BenchMain.class.getName());
        }
    }

    @Test
    void shouldPrintTheBenchUsageWhenTheBenchJarRunsWithHelp() throws Exception {
        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar("catalogViews.benchJar").toString(), "--help").redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(java.waitFor(60, TimeUnit.SECONDS)).as("bench --help ended").isTrue();
        assertThat(java.exitValue()).as("exit code of bench --help; output:%n%s", output).isZero();
        assertThat(output).contains("Usage: catalog-views bench", "--quick", "--service-classpath");
    }

    private static Path jar(String property) {
        String path = System.getProperty(property);
        assertThat(path).as("system property %s (set by bench/pom.xml)", property).isNotNull();
        Path jar = Path.of(path);
        assertThat(jar).as("%s: build it in the same reactor (mvn -B -pl bench -am verify)", property).isRegularFile();
        return jar;
    }

    private static List<String> entries(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(JarEntry::getName).toList();
        }
    }
}
