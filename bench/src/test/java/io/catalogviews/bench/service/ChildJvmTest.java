package io.catalogviews.bench.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ChildJvmTest {

    /** Prints two variables of its environment and exits. */
    public static final class EnvironmentProbe {
        public static void main(String[] args) {
            System.out.println("probe=" + System.getenv("CATALOG_VIEWS_PROBE"));
            System.out.println("path=" + System.getenv("PATH"));
        }
    }

    @Test
    void shouldSetAndRemoveVariablesWhenTheEnvironmentNamesThem(@TempDir Path dir) throws Exception {
        assertThat(System.getenv("PATH")).as("the harness's own environment has PATH").isNotNull();
        Path log = dir.resolve("probe.log");
        try (ChildJvm child = ChildJvm.start("probe", System.getProperty("java.class.path"), List.of("-Xmx64m"),
                Map.of("CATALOG_VIEWS_PROBE", "glibc.malloc.hugetlb=1", "PATH", ""), EnvironmentProbe.class.getName(),
                List.of(), log, ChildJvm.freePort())) {
            await("the probe JVM has printed its environment and exited").atMost(Duration.ofMinutes(1))
                    .until(() -> !child.isAlive());
        }
        assertThat(Files.readAllLines(log)).contains("probe=glibc.malloc.hugetlb=1", "path=null");
    }
}
