package io.catalogviews.docker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code docker/validate.sh} accepts {@code docker/compose.yaml} and {@code docker/Dockerfile}. It needs Debian's
 * {@code docker-compose} (which validates files without a Docker engine); where that is not on the PATH the test
 * is skipped. Nothing here builds or runs an image: that path is not exercised by CI.
 */
@Timeout(120)
class DockerFilesTest {

    private static final Path SCRIPT = Path.of("..", "docker", "validate.sh");

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldValidateTheComposeFileAndDockerfileWhenDockerComposeIsInstalled()
            throws IOException, InterruptedException {
        assumeTrue(onPath("docker-compose"), "docker-compose is not on the PATH; skipping the Docker file check");
        assertThat(SCRIPT).isRegularFile();

        Process process = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ended = process.waitFor(90, TimeUnit.SECONDS);

        assertThat(ended).as("validate.sh ended").isTrue();
        assertThat(process.exitValue()).as("validate.sh output: %s", output).isZero();
        assertThat(output).contains("are valid");
    }
}
