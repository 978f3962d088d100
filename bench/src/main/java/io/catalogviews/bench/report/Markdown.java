package io.catalogviews.bench.report;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;
import io.catalogviews.bench.results.BenchResults;
import io.catalogviews.bench.results.BuildInfo;
import io.catalogviews.bench.results.ChangelogWrites;
import io.catalogviews.bench.results.ChurnFigures;
import io.catalogviews.bench.results.FreshnessFigures;
import io.catalogviews.bench.results.IssueTarget;
import io.catalogviews.bench.results.MaterializedRuns;
import io.catalogviews.bench.results.ReadLoadFigures;
import io.catalogviews.bench.results.ViewFreshness;
import io.catalogviews.bench.results.DeepPage;
import io.catalogviews.bench.results.LoadFigures;
import io.catalogviews.bench.results.Machine;
import io.catalogviews.bench.results.MemoryFigures;
import io.catalogviews.bench.results.PostgresIngest;
import io.catalogviews.bench.results.RestoreFigures;
import io.catalogviews.bench.results.SummaryRow;
import io.catalogviews.bench.results.TargetCheck;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The Markdown summary of one run (the tables docs/benchmarks.md quotes). */
final class Markdown {

    private Markdown() {
    }

    static String summary(BenchResults results, BenchSettings s) {
        StringBuilder md = new StringBuilder();
        md.append("# catalog-views benchmark run\n\n");
        issueTargets(md, results, s);
        Machine machine = results.machine();
        md.append("Machine: ").append(machine.cores()).append(" cores, ").append(machine.memoryMb())
                .append(" MB, ").append(machine.cpu() == null ? "?" : machine.cpu()).append(", ")
                .append(machine.java())
                .append(". The load client, the service, the broker and PostgreSQL share these cores.\n\n");
        md.append(String.format(Locale.ROOT, "Profile %s: %,d products, %,d changes; each query run %s s after a %s s "
                        + "warm-up; concurrencies %s; RocksDB bound %d MB%s; seed %d.%n%n", s.quick() ? "quick" : "full",
                s.products(), s.updates(), s.duration().toMillis() / 1000.0, s.warmup().toMillis() / 1000.0,
                s.concurrencies(), s.rocksDbMemoryMb(),
                s.postgres() ? " (PostgreSQL's shared_buffers the same)" : "", s.seed()));
        build(md, results.build());
        load(md, results.load(), results.postgresIngest());
        queries(md, results.summary(), results.queries(), results.deepPages(), s);
        Observations.service(md, results.queries(), s);
        Observations.postgres(md, results.postgres());
        freshness(md, results.freshness(), s);
        churn(md, results.churn());
        memory(md, results.memory());
        restore(md, results.restore());
        md.append("## Targets of issue 5 (the first targets, kept for comparison with earlier runs)\n\n"
                + "| target | measured | met |\n|---|---:|:---:|\n");
        for (TargetCheck t : results.targets()) {
            md.append("| ").append(t.target()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met() ? "yes" : "**no**").append(" |\n");
        }
        md.append(String.format(Locale.ROOT, "%nWrong answers in the whole run: %s; errors: %s.%n%n",
                results.wrongAnswers(), results.errors()));
        md.append("![throughput](throughput.svg)\n\n![latency](latency.svg)\n");
        return md.toString();
    }

    private static void issueTargets(StringBuilder md, BenchResults results, BenchSettings s) {
        List<IssueTarget> targets = results.issueTargets();
        if (targets == null || targets.isEmpty()) {
            return;
        }
        md.append(String.format(Locale.ROOT, "## Targets of issues 14 and 15%n%n%,d products (the issues set their "
                        + "targets for 1 000 000), %d run%s of each figure: median [min–max].%n%n", s.products(),
                s.runs(), s.runs() == 1 ? "" : "s"));
        md.append("| issue | target | figure | met |\n|---:|---|---:|:---:|\n");
        for (IssueTarget t : targets) {
            String status = switch (t.status()) {
                case IssueTarget.MET -> "yes";
                case IssueTarget.MISSED -> "**no**";
                default -> t.status();
            };
            md.append("| ").append(t.issue()).append(" | ").append(t.target()).append(" | ").append(t.figure())
                    .append(" | ").append(status).append(" |\n");
        }
        md.append('\n');
    }

    private static void build(StringBuilder md, BuildInfo build) {
        if (build != null) {
            md.append("Service jar `").append(build.serviceJar()).append("` from commit `")
                    .append(build.serviceCommit()).append('`')
                    .append(Boolean.TRUE.equals(build.serviceTreeDirty()) ? " (tree with uncommitted changes)" : "")
                    .append(", written ").append(build.serviceJarModified()).append("; harness from commit `")
                    .append(build.harnessCommit()).append("`.\n\n");
        }
    }

    private static void load(StringBuilder md, LoadFigures load, PostgresIngest pg) {
        if (load != null) {
            md.append("## Load\n\n| events | published/s | materialized/s (all views caught up) | drain after publish |\n")
                    .append("|---:|---:|---:|---:|\n");
            md.append(String.format(Locale.ROOT, "| %,d | %,.0f | %,.0f | %.1f s |%n%n", load.events(),
                    load.publishedPerSecond(), load.materializedPerSecond(), load.drainAfterPublishSeconds()));
            writes(md, load.newProducts());
            writes(md, load.changes());
            if (load.passThroughPerSecond() != null) {
                md.append(String.format(Locale.ROOT, "A pass-through Kafka Streams topology (exactly_once_v2, same broker, "
                        + "same events) copied %,.0f events/s: catalog-views materialized at %.0f %% of that.%n%n",
                        load.passThroughPerSecond(), 100 * load.fractionOfPassThrough()));
            }
        }
        if (pg != null) {
            md.append(String.format(Locale.ROOT, "PostgreSQL ingest of the same events as batched upserts (%s a batch, "
                            + "indexes and the facet counts' trigger in place): %,.0f events/s; catalog-views materialized %.2f× that rate.%n%n",
                    pg.batch(), pg.eventsPerSecond(), pg.ratioCatalogViewsToPostgres()));
        }
    }

    /** One kind of write in parts: events/s of each. */
    private static void writes(StringBuilder md, MaterializedRuns m) {
        if (m == null) {
            return;
        }
        md.append(String.format(Locale.ROOT, "Materialized, %s: %,d events, **%s events/s**%s:", m.kind(), m.events(),
                IssueTargets.range(m.medianPerSecond(), m.minPerSecond(), m.maxPerSecond(), "%,.0f"),
                m.each().size() == 1 ? "" : " (median [min–max] of " + m.each().size() + " parts)"));
        for (MaterializedRuns.Part p : m.each()) {
            md.append(String.format(Locale.ROOT, " %,d in %.1f s (%,.0f/s);", p.events(), p.seconds(),
                    p.perSecond()));
        }
        md.append("\n\n");
    }

    private static void queries(StringBuilder md, List<SummaryRow> summary, List<LoadResult> runs,
                                List<DeepPage> deepPages, BenchSettings s) {
        md.append("## Queries (right answers per second; latency in ms)\n\n");
        md.append("| class | c | catalog-views/s | p50 | p95 | p99 | max | bytes | wrong | errors | ceiling/s | "
                + "of ceiling | PG+HTTP/s | × PG+HTTP | PG JDBC/s | × PG JDBC | srv CPU | client CPU | other CPU |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SummaryRow r : summary) {
            SummaryRow.Ceiling ceiling = r.ceiling();
            SummaryRow.PostgresHttp pgHttp = r.postgresHttp();
            SummaryRow.PostgresJdbc pgJdbc = r.postgresJdbc();
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %.2f | %.2f | %.1f | %,.0f | %d | %d | %s | %s "
                            + "| %s | %s | %s | %s | %.2f | %.2f | %.2f |%n", r.queryClass(), r.concurrency(),
                    throughput(r), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.bytes(), r.wrong(), r.errors(),
                    num(ceiling, SummaryRow.Ceiling::ceiling), pct(ceiling, SummaryRow.Ceiling::fractionOfCeiling),
                    num(pgHttp, SummaryRow.PostgresHttp::postgresHttp),
                    times(pgHttp, SummaryRow.PostgresHttp::ratioToPostgresHttp),
                    num(pgJdbc, SummaryRow.PostgresJdbc::postgresJdbc),
                    times(pgJdbc, SummaryRow.PostgresJdbc::ratioToPostgresJdbc),
                    r.serviceCpuCores(), r.clientCpuCores(), r.otherCpuCores()));
        }
        if (s.runs() > 1) {
            md.append(String.format(Locale.ROOT, "%nEach figure is the median of %d runs (catalog-views/s with its "
                    + "[min–max]); the targets were measured in turn in each run, ratios taken run by run.%n",
                    s.runs()));
        }
        md.append("\nClasses: ");
        for (QueryClass c : s.classes()) {
            md.append("`").append(c.key).append("` ").append(c.description).append("; ");
        }
        md.append("\n\n");
        if (deepPages != null && !deepPages.isEmpty()) {
            md.append("Deep pages: ").append(deepPages.stream().map(d -> "{category=" + d.category() + ", page="
                    + d.page() + ", offset=" + d.offset() + "}").collect(Collectors.joining(", ", "[", "]")))
                    .append("\n\n");
        }
        md.append("All runs (every target, every phase; CPU in cores of the target, the harness, everything else; the "
                + "harness's CPU per request, and the answers whose check needed a parse):\n\n"
                + "| target | class | c | run | right/s | p50 | p99 | max | wrong | errors | target CPU | harness CPU "
                + "| other CPU | client µs/req | parsed |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LoadResult r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %,.0f | %.2f | %.2f | %.1f | %d | %d | %.2f | "
                            + "%.2f | %.2f | %.1f | %d |%n", r.target(), r.queryClass(), r.concurrency(), r.run(),
                    r.throughput(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.wrong(), r.errors(), r.serverCpuCores(),
                    r.clientCpuCores(), r.otherCpuCores(), r.clientCpuMicrosPerRequest(), r.parsedAnswers()));
        }
        md.append('\n');
    }

    private static void freshness(StringBuilder md, FreshnessFigures f, BenchSettings s) {
        if (f == null) {
            return;
        }
        String warmup = s.freshnessWarmup().isZero() ? "" : String.format(Locale.ROOT, "; before the first run, "
                + "%s s of changes at that rate%s, not measured", s.freshnessWarmup().toMillis() / 1000.0,
                f.readLoad() == null ? "" : " with the read mix");
        md.append(String.format(Locale.ROOT, "## Freshness%n%n%,.0f changes/s asked, %,.0f sent (median of %d "
                        + "run%s); publish → visible from %s%s.%n%n", f.rate(), f.achievedRate(), f.runs(),
                f.runs() == 1 ? "" : "s", f.measuredFrom(), warmup));
        md.append("| view | probes | p50 ms | p95 ms | p99 ms [min–max] | max ms | not visible within 10 s | "
                + "superseded | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ViewFreshness v : java.util.Arrays.asList(f.productView(), f.categoryPages())) {
            if (v != null) {
                md.append(String.format(Locale.ROOT, "| %s%s | %,d | %.1f | %.1f | %s | %.1f | %d | %d | %d |%n",
                        v.view(), v.pollIntervalMs() == null ? ""
                                : String.format(Locale.ROOT, ", polled every %.0f ms or 5 %% of the wait so far, whichever is longer",
                                        v.pollIntervalMs()),
                        v.probes(), v.p50Ms(), v.p95Ms(), IssueTargets.range(v.p99Ms(), v.p99MsMin(), v.p99MsMax(),
                                "%.1f"), v.maxMsMax(), v.timeouts(), v.superseded(), v.errors()));
            }
        }
        ReadLoadFigures r = f.readLoad();
        if (r != null) {
            md.append(String.format(Locale.ROOT, "%nMeanwhile the read mix (%s; %s): %,.0f requests/s asked, %,.0f "
                            + "answered (median), p50 %.1f ms, p99 %.1f ms, max %.1f ms; %,d right status, %d wrong, "
                            + "%d errors, %d dropped.%n", String.join(", ", r.classes()), r.note(), r.askedRate(),
                    r.achievedRate(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.ok(), r.wrong(), r.errors(), r.dropped()));
        } else {
            md.append("\nNo read mix ran meanwhile (--freshness-read-rate 0).\n");
        }
        md.append('\n');
    }

    private static void churn(StringBuilder md, ChurnFigures churn) {
        if (churn == null) {
            return;
        }
        md.append(String.format(Locale.ROOT, "## Churn%n%n%,d more changes, materialized at %,.0f events/s.%n%n",
                churn.changes(), churn.materializedPerSecond()));
        writes(md, churn.materialized());
        ChangelogWrites log = churn.changelog();
        if (log != null) {
            md.append(String.format(Locale.ROOT, "Changelog writes of the churn: %,d bytes and %,d offsets for %,d "
                            + "applied changes: **%,.0f bytes** and %.1f offsets per change (%s).%n%n",
                    log.bytesWritten(), log.offsetsWritten(), log.changesApplied(), log.bytesPerChange(),
                    log.offsetsPerChange(), log.bytesWrittenByTopic()));
        }
        md.append("| class | before/s | after/s | after / before | ceiling before/s | ceiling after/s | "
                + "of ceiling before → after |\n|---|---:|---:|---:|---:|---:|---:|\n");
        for (ChurnFigures.Row row : churn.classes()) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s → %s |%n", row.queryClass(),
                    num(row.before()), num(row.after()), pct(row.ratio()), num(row.ceilingBefore()),
                    num(row.ceilingAfter()), pct(row.fractionBefore()), pct(row.fractionAfter())));
        }
        md.append('\n');
    }

    private static void memory(StringBuilder md, MemoryFigures mem) {
        if (mem != null) {
            md.append(String.format(Locale.ROOT, "## Memory%n%nService resident memory at the end: %s MB; RocksDB bound "
                    + "configured: %s MB; JVM options %s.%n%n", num(mem.serviceRssMb()), mem.rocksDbBoundMb(),
                    mem.serviceJvmOptions()));
        }
    }

    private static void restore(StringBuilder md, RestoreFigures restore) {
        if (restore == null) {
            return;
        }
        md.append("## Restore from the changelogs\n\n");
        RestoreFigures.Changelogs before = restore.changelogs();
        RestoreFigures.Timing timing = restore.timing();
        if (restore.skipped() != null) {
            md.append("Skipped: ").append(restore.skipped()).append(".\n\n");
        } else if (timing != null) {
            md.append(String.format(Locale.ROOT, "The service stopped cleanly (%.1f s), its state directory "
                            + "(%s MB) deleted, and started again on the same broker and application id. From "
                            + "the process start: HTTP up after %.1f s, `/health/ready` 200 after **%.1f s**, "
                            + "`/v1/cluster` `caughtUp: true` after %.1f s, every view caught up and the sampled "
                            + "answers right after **%.1f s** (%.1f s after HTTP was up).%n%n",
                    restore.stopSeconds(), num(before.stateDirMbBefore()), timing.httpUpSeconds(),
                    timing.readySeconds(), timing.clusterCaughtUpSeconds(), timing.restoreSeconds(),
                    timing.restoreSecondsAfterHttpUp()));
            md.append("| products | restore s | products/s | s per 100 000 products (ready / right) | "
                    + "changelog offsets | offsets/s (to ready) |\n|---:|---:|---:|---:|---:|---:|\n");
            md.append(String.format(Locale.ROOT, "| %,d | %.1f | %,.0f | %.1f / %.1f | %,d | %,.0f |%n%n",
                    before.products(), timing.restoreSeconds(), timing.productsPerSecond(),
                    timing.readySecondsPer100kProducts(), timing.secondsPer100kProducts(), before.changelogOffsets(),
                    timing.changelogOffsetsPerSecondToReady()));
            RestoreFigures.Verification v = restore.verification();
            if (v != null) {
                md.append(String.format(Locale.ROOT, "Then every query class for %s s at %s connections: %s right, "
                                + "%s wrong, %s errors. Checks not right while `/v1/cluster` said caught up: %s.%n%n",
                        v.secondsPerClass(), v.concurrency(), v.right(), v.wrong(), v.errors(),
                        timing.checksNotRightWhileCaughtUp()));
            }
        }
        if (restore.error() != null) {
            md.append("**The restore failed:** ").append(restore.error()).append("\n\n");
        }
    }

    /** The median throughput, with its range when several runs differ. */
    private static String throughput(SummaryRow r) {
        SummaryRow.Spread sp = r.spread();
        return sp == null || sp.runs() < 2 ? String.format(Locale.ROOT, "%,.0f", r.throughput())
                : IssueTargets.range(r.throughput(), sp.throughputMin(), sp.throughputMax(), "%,.0f");
    }

    private static String num(Double v) {
        return v != null ? String.format(Locale.ROOT, "%,.0f", v) : "–";
    }

    private static String pct(Double v) {
        return v != null ? String.format(Locale.ROOT, "%.0f %%", v * 100) : "–";
    }

    private static <T> String num(T part, Function<T, Double> value) {
        return num(part == null ? null : value.apply(part));
    }

    private static <T> String pct(T part, Function<T, Double> value) {
        return pct(part == null ? null : value.apply(part));
    }

    private static <T> String times(T part, Function<T, Double> value) {
        return part == null ? "–" : String.format(Locale.ROOT, "%.2f×", value.apply(part));
    }
}
