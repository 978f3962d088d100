package io.catalogviews.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code catalog-views bench}: the contract's sub-command, kept in the service's executable, which does not carry
 * the harness (it ships as its own jar, {@code catalog-views-bench.jar}, so the service never contains the benchmark
 * or the PostgreSQL driver). This command finds that jar — {@code CATALOG_VIEWS_BENCH_JAR}, or beside the service
 * jar, or in the build tree — and runs it with the same arguments in a child JVM that shares this terminal.
 */
@Command(name = "bench", description = {"The benchmark harness (its own jar, catalog-views-bench.jar, run as a child "
        + "process with these arguments; `bench --help` lists its options).",
        "Finds the jar through CATALOG_VIEWS_BENCH_JAR, beside this jar, or at bench/target/ of the build tree."})
public final class BenchLauncherCommand implements Callable<Integer> {

    static final String JAR_NAME = "catalog-views-bench.jar";

    @Parameters(arity = "0..*", description = "Arguments of the harness (see bench --help).")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path serviceJar = serviceJar();
        Path benchJar = benchJar(System.getenv("CATALOG_VIEWS_BENCH_JAR"), serviceJar);
        if (benchJar == null) {
            System.err.println("error: the benchmark harness is not part of the service jar and " + JAR_NAME
                    + " was not found; build it with `mvn -B -pl bench -am package -DskipTests` (or run "
                    + "bin/catalog-views bench, which does), or set CATALOG_VIEWS_BENCH_JAR");
            return 1;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        if (serviceJar != null) {
            command.add("-DcatalogViews.serviceJar=" + serviceJar);
        }
        command.addAll(List.of("-jar", benchJar.toString()));
        command.addAll(arguments);
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }

    /** The jar this command runs from, or null when not run from a jar. */
    private static Path serviceJar() {
        try {
            Path location = Path.of(BenchLauncherCommand.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI());
            return Files.isRegularFile(location) ? location : null;
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }

    /** The harness jar: configured, beside the service jar, or in the build tree; null when none exists. */
    static Path benchJar(String configured, Path serviceJar) {
        List<Path> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            candidates.add(Path.of(configured));
        }
        if (serviceJar != null && serviceJar.getParent() != null) {
            Path dir = serviceJar.getParent();
            candidates.add(dir.resolve(JAR_NAME));
            // api/target/catalog-views.jar → bench/target/catalog-views-bench.jar in a build tree
            if (dir.getParent() != null && dir.getParent().getParent() != null) {
                candidates.add(dir.getParent().getParent().resolve("bench").resolve("target").resolve(JAR_NAME));
            }
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst().map(Path::toAbsolutePath).orElse(null);
    }
}
