package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine the run measured on ({@code machine}).
 *
 * @param memoryMb null when the JVM cannot tell
 * @param cpu      the model name of {@code /proc/cpuinfo}, null when not on Linux
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Machine(int cores, Long memoryMb, String os, String java, String cpu, String note) {

    private static final String NOTE = "load client, service, broker and PostgreSQL all share these cores";

    /** This machine. */
    public static Machine current() {
        Long memoryMb = ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getTotalMemorySize() / (1024 * 1024) : null;
        String cpu = null;
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(null);
        } catch (IOException e) {
            // not on Linux
        }
        return new Machine(Runtime.getRuntime().availableProcessors(), memoryMb,
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), cpu, NOTE);
    }
}
