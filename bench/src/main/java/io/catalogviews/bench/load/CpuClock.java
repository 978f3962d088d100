package io.catalogviews.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time (user + system) of a process and its children, from {@code /proc/<pid>/stat}; 0 where there is none. */
public final class CpuClock {

    /** Linux reports these fields in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private final java.util.Set<Long> pids = new java.util.HashSet<>();

    public CpuClock(long... pids) {
        for (long p : pids) {
            this.pids.add(p);
        }
    }

    /** Busy CPU time of the whole machine (all but idle and iowait), from {@code /proc/stat}; 0 elsewhere. */
    public static long machineBusyNanos() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** CPU time of the process and of its direct children (PostgreSQL serves each connection in a child). */
    public long nanos() {
        if (pids.isEmpty()) {
            return 0;
        }
        long total = 0;
        try (java.util.stream.Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                long[] f = stat(p);
                if (f != null && (pids.contains(Long.parseLong(name)) || pids.contains(f[0]))) {
                    total += f[1];
                }
            }
        } catch (IOException | RuntimeException e) {
            return total;
        }
        return total;
    }

    /** {ppid, utime + stime in nanoseconds} of one /proc entry, or null. */
    private static long[] stat(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "(comm) ": state=0, ppid=1, ..., utime=11, stime=12
            return new long[]{Long.parseLong(f[1]), (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Resident memory in bytes ({@code VmRSS} of {@code /proc/<pid>/status}), or -1. */
    public static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
