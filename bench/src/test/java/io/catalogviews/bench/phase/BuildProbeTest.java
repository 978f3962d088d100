package io.catalogviews.bench.phase;

import io.catalogviews.bench.results.BuildInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class BuildProbeTest {

    @TempDir
    Path outside;

    @Test
    void shouldNameTheCommitOfTheTreeWhenTheJarLiesInAGitWorkTree() {
        // The module's own pom lies in this project's git work tree.
        Path inTree = Path.of("pom.xml").toAbsolutePath();

        assertThat(BuildProbe.commit(inTree)).matches("[0-9a-f]{40}");
        assertThat(BuildProbe.dirty(inTree)).isNotNull();
    }

    @Test
    void shouldSayUnknownWhenTheJarLiesOutsideAnyGitTree() throws Exception {
        Path jar = Files.createFile(outside.resolve("catalog-views.jar"));

        assertThat(BuildProbe.commit(jar)).isEqualTo(BuildInfo.UNKNOWN);
        assertThat(BuildProbe.dirty(jar)).isNull();
        assertThat(BuildProbe.of(jar.toString()).serviceCommit()).isEqualTo(BuildInfo.UNKNOWN);
    }
}
