package io.catalogviews.bench.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of every thread of a process, from {@code /proc/<pid>/task/<tid>/stat} (user + system ticks) and the
 * thread's name in it; two snapshots give the CPU each thread group took in between ({@link ThreadNames}).
 * Reading them costs the harness a few hundred file reads and the process nothing.
 */
public final class ThreadCpu {

    /** Linux reports these fields in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
    private static final double SECONDS_PER_TICK = 0.01;
    /** Groups below this share of a core are left out of the figures. */
    private static final double SMALLEST_CORES = 0.005;

    /** One thread at one moment. */
    record Task(String comm, long ticks) {
    }

    /** Every thread of a process at one moment, by thread id (empty when the process cannot be read). */
    public record Snapshot(Map<Long, Task> threads) {
    }

    private ThreadCpu() {
    }

    public static Snapshot of(long pid) {
        Map<Long, Task> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                Task t = read(task.resolve("stat"));
                if (t != null) {
                    threads.put(Long.parseLong(task.getFileName().toString()), t);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone or not on Linux: no figures
        }
        return new Snapshot(threads);
    }

    /** {@code <tid> (<comm>) <state> …}: the name sits between the first '(' and the last ')'. */
    static Task read(Path stat) {
        try {
            return parse(Files.readString(stat));
        } catch (IOException | RuntimeException e) {
            return null; // the thread ended meanwhile
        }
    }

    static Task parse(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String comm = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        // after "(comm) ": state=0, ppid=1, …, utime=11, stime=12
        return new Task(comm, Long.parseLong(f[11]) + Long.parseLong(f[12]));
    }

    /**
     * The cores each thread group used between two snapshots {@code seconds} apart, largest first; threads that
     * started in between count from zero, threads that ended in between are not seen.
     */
    public static Map<String, Double> coresByGroup(Snapshot before, Snapshot after, double seconds,
                                                   ThreadNames names) {
        Map<String, Double> byGroup = new HashMap<>();
        after.threads().forEach((tid, now) -> {
            Task then = before.threads().get(tid);
            long ticks = now.ticks() - (then == null ? 0 : then.ticks());
            if (ticks > 0) {
                byGroup.merge(names.group(now.comm()), ticks * SECONDS_PER_TICK / seconds, Double::sum);
            }
        });
        List<Map.Entry<String, Double>> sorted = new ArrayList<>(byGroup.entrySet());
        sorted.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : sorted) {
            if (e.getValue() >= SMALLEST_CORES) {
                out.put(e.getKey(), Math.round(e.getValue() * 1000) / 1000.0);
            }
        }
        return out;
    }
}
