package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchRun;
import io.catalogviews.bench.results.BuildInfo;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Finds out which commits the service's jar and the harness came from ({@link BuildInfo}). */
public final class BuildProbe {

    private BuildProbe() {
    }

    /** @param serviceClassPath the service JVM's class path (its first entry is taken as the service's jar) */
    public static BuildInfo of(String serviceClassPath) {
        Path service = firstEntry(serviceClassPath);
        Path harness = harnessLocation();
        return new BuildInfo(service == null ? null : service.toString(), commit(service), dirty(service),
                modified(service), harness == null ? null : harness.toString(), commit(harness), dirty(harness));
    }

    static Path firstEntry(String classPath) {
        if (classPath == null || classPath.isBlank()) {
            return null;
        }
        return Path.of(classPath.split(File.pathSeparator)[0]).toAbsolutePath();
    }

    private static Path harnessLocation() {
        try {
            return Path.of(BenchRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            return null;
        }
    }

    /** {@code git rev-parse HEAD} of the tree holding {@code file}, or {@link BuildInfo#UNKNOWN}. */
    static String commit(Path file) {
        String head = git(file, "rev-parse", "HEAD");
        return head == null || head.isBlank() ? BuildInfo.UNKNOWN : head.strip();
    }

    /** Whether the tree holding {@code file} has uncommitted changes to tracked files; null when not a git tree. */
    static Boolean dirty(Path file) {
        String status = git(file, "status", "--porcelain", "--untracked-files=no");
        return status == null ? null : !status.isBlank();
    }

    private static String modified(Path file) {
        try {
            return file == null ? null : Files.getLastModifiedTime(file).toInstant().toString();
        } catch (Exception e) {
            return null;
        }
    }

    /** The output of a git command run in {@code file}'s directory, or null when it fails. */
    private static String git(Path file, String... args) {
        if (file == null) {
            return null;
        }
        Path dir = Files.isDirectory(file) ? file : file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return null;
        }
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return null;
            }
            return out;
        } catch (Exception e) {
            return null;
        }
    }
}
