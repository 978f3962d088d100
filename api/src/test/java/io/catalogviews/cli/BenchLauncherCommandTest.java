package io.catalogviews.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchLauncherCommandTest {

    @Test
    void shouldFindTheHarnessInTheBuildTreeWhenRunFromTheServiceJar(@TempDir Path root) throws Exception {
        Path serviceJar = Files.createDirectories(root.resolve("api/target")).resolve("catalog-views.jar");
        Files.writeString(serviceJar, "jar");
        Path benchJar = Files.createDirectories(root.resolve("bench/target")).resolve(BenchLauncherCommand.JAR_NAME);
        Files.writeString(benchJar, "jar");

        assertThat(BenchLauncherCommand.benchJar(null, serviceJar)).isEqualTo(benchJar.toAbsolutePath());
    }

    @Test
    void shouldPreferTheConfiguredJarWhenOneIsSet(@TempDir Path root) throws Exception {
        Path configured = Files.writeString(root.resolve("elsewhere.jar"), "jar");

        assertThat(BenchLauncherCommand.benchJar(configured.toString(), null)).isEqualTo(configured.toAbsolutePath());
    }

    @Test
    void shouldAnswerNullWhenNoHarnessJarExists(@TempDir Path root) {
        assertThat(BenchLauncherCommand.benchJar(null, root.resolve("api/target/catalog-views.jar"))).isNull();
        assertThat(BenchLauncherCommand.benchJar(root.resolve("missing.jar").toString(), null)).isNull();
    }
}
