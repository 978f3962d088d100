package io.catalogviews.bench.phase;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.load.CpuClock;
import io.catalogviews.bench.results.MemoryFigures;

import java.util.Locale;

/** The service's resident memory once the measured phases are over, beside the memory bounds it was given. */
public final class MemoryPhase {

    private final RunContext ctx;

    public MemoryPhase(RunContext ctx) {
        this.ctx = ctx;
    }

    /** @param servicePid the service's process, or -1 for a deployment the harness did not start (no RSS then) */
    public MemoryFigures run(long servicePid) {
        BenchSettings s = ctx.settings();
        Double rssMb = null;
        if (servicePid > 0) {
            rssMb = CpuClock.residentBytes(servicePid) / (1024.0 * 1024);
            ctx.say(String.format(Locale.ROOT, "service resident memory at the end: %.0f MB (RocksDB bound %d MB, "
                    + "JVM %s)", rssMb, s.rocksDbMemoryMb(), s.serviceJvmOptions()));
        }
        return new MemoryFigures(s.rocksDbMemoryMb(), s.postgres() ? s.postgresSharedBuffersMb() : 0, rssMb,
                s.serviceJvmOptions());
    }
}
