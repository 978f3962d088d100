package io.catalogviews.bench.report;

import io.catalogviews.bench.BenchSettings;
import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.query.QueryClass;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown summary of one run (the tables docs/benchmarks.md quotes). */
final class Markdown {

    private Markdown() {
    }

    @SuppressWarnings("unchecked")
    static String summary(Map<String, Object> results, List<Map<String, Object>> summary, List<LoadResult> runs,
                          BenchSettings s) {
        StringBuilder md = new StringBuilder();
        md.append("# catalog-views benchmark run\n\n");
        Map<String, Object> machine = (Map<String, Object>) results.get("machine");
        md.append("Machine: ").append(machine.get("cores")).append(" cores, ").append(machine.get("memoryMb"))
                .append(" MB, ").append(machine.getOrDefault("cpu", "?")).append(", ").append(machine.get("java"))
                .append(". The load client, the service, the broker and PostgreSQL share these cores.\n\n");
        md.append(String.format(Locale.ROOT, "Profile %s: %,d products, %,d changes; each query run %s s after a %s s "
                        + "warm-up; concurrencies %s; RocksDB bound %d MB%s; seed %d.%n%n", s.quick() ? "quick" : "full",
                s.products(), s.updates(), s.duration().toMillis() / 1000.0, s.warmup().toMillis() / 1000.0,
                s.concurrencies(), s.rocksDbMemoryMb(),
                s.postgres() ? " (PostgreSQL's shared_buffers the same)" : "", s.seed()));

        if (results.get("load") instanceof Map<?, ?> load) {
            md.append("## Load\n\n| events | published/s | materialized/s (all views caught up) | drain after publish |\n")
                    .append("|---:|---:|---:|---:|\n");
            md.append(String.format(Locale.ROOT, "| %,d | %,.0f | %,.0f | %.1f s |%n%n", load.get("events"),
                    (Double) load.get("publishedPerSecond"), (Double) load.get("materializedPerSecond"),
                    (Double) load.get("drainAfterPublishSeconds")));
            if (load.get("passThroughPerSecond") instanceof Double pass) {
                md.append(String.format(Locale.ROOT, "A pass-through Kafka Streams topology (exactly_once_v2, same broker, "
                        + "same events) copied %,.0f events/s: catalog-views materialized at %.0f %% of that.%n%n", pass,
                        100 * (Double) load.get("fractionOfPassThrough")));
            }
        }
        if (results.get("postgresIngest") instanceof Map<?, ?> pg) {
            md.append(String.format(Locale.ROOT, "PostgreSQL ingest of the same events as batched upserts (%s a batch, "
                            + "indexes in place): %,.0f events/s; catalog-views materialized %.2f× that rate.%n%n",
                    pg.get("batch"), (Double) pg.get("eventsPerSecond"), (Double) pg.get("ratioCatalogViewsToPostgres")));
        }

        md.append("## Queries (right answers per second; latency in ms)\n\n");
        md.append("| class | c | catalog-views/s | p50 | p95 | p99 | max | bytes | wrong | errors | ceiling/s | "
                + "of ceiling | PG+HTTP/s | × PG+HTTP | PG JDBC/s | × PG JDBC | srv CPU | client CPU | other CPU |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map<String, Object> r : summary) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %.2f | %.2f | %.2f | %.1f | %,.0f | %d | %d | %s | %s "
                            + "| %s | %s | %s | %s | %.2f | %.2f | %.2f |%n", r.get("class"), r.get("concurrency"),
                    (Double) r.get("throughput"), (Double) r.get("p50Ms"), (Double) r.get("p95Ms"),
                    (Double) r.get("p99Ms"), (Double) r.get("maxMs"), (Double) r.get("bytes"), r.get("wrong"),
                    r.get("errors"), num(r.get("ceiling")), pct(r.get("fractionOfCeiling")), num(r.get("postgresHttp")),
                    times(r.get("ratioToPostgresHttp")), num(r.get("postgresJdbc")), times(r.get("ratioToPostgresJdbc")),
                    (Double) r.get("serviceCpuCores"), (Double) r.get("clientCpuCores"),
                    (Double) r.get("otherCpuCores")));
        }
        md.append("\nClasses: ");
        for (QueryClass c : s.classes()) {
            md.append("`").append(c.key).append("` ").append(c.description).append("; ");
        }
        md.append("\n\n");
        if (results.get("deepPages") instanceof List<?> deep && !deep.isEmpty()) {
            md.append("Deep pages: ").append(deep).append("\n\n");
        }
        md.append("All runs (every target, every phase; CPU in cores of the target, the harness, everything else):\n\n"
                + "| target | class | c | right/s | p50 | p99 | max | wrong | errors | target CPU | harness CPU | other CPU |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LoadResult r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %.2f | %.2f | %.1f | %d | %d | %.2f | %.2f | %.2f |%n",
                    r.target(), r.queryClass(), r.concurrency(), r.throughput(), r.p50Ms(), r.p99Ms(), r.maxMs(),
                    r.wrong(), r.errors(), r.serverCpuCores(), r.clientCpuCores(), r.otherCpuCores()));
        }
        md.append('\n');
        if (results.get("freshness") instanceof io.catalogviews.bench.service.Freshness.Result f) {
            md.append(String.format(Locale.ROOT, "## Freshness (%s)%n%n%,.0f changes/s asked, %,.0f sent; %d probes: p50 "
                            + "%.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; %d not visible within 10 s, %d errors.%n%n",
                    f.view(), f.rate(), f.achievedRate(), f.probes(), f.p50Ms(), f.p95Ms(), f.p99Ms(), f.maxMs(),
                    f.timeouts(), f.errors()));
        }
        if (results.get("churn") instanceof Map<?, ?> churn) {
            md.append(String.format(Locale.ROOT, "## Churn%n%n%,d more changes, materialized at %,.0f events/s.%n%n",
                    churn.get("changes"), (Double) churn.get("materializedPerSecond")));
            md.append("| class | before/s | after/s | after / before | ceiling before/s | ceiling after/s | "
                    + "of ceiling before → after |\n|---|---:|---:|---:|---:|---:|---:|\n");
            for (Object o : (List<?>) churn.get("classes")) {
                Map<String, Object> row = (Map<String, Object>) o;
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s → %s |%n", row.get("class"),
                        num(row.get("before")), num(row.get("after")), pct(row.get("ratio")),
                        num(row.get("ceilingBefore")), num(row.get("ceilingAfter")), pct(row.get("fractionBefore")),
                        pct(row.get("fractionAfter"))));
            }
            md.append('\n');
        }
        if (results.get("memory") instanceof Map<?, ?> mem) {
            md.append(String.format(Locale.ROOT, "## Memory%n%nService resident memory at the end: %s MB; RocksDB bound "
                    + "configured: %s MB; JVM options %s.%n%n", num(mem.get("serviceRssMb")), mem.get("rocksDbBoundMb"),
                    mem.get("serviceJvmOptions")));
        }
        if (results.get("restore") instanceof Map<?, ?> restore) {
            md.append("## Restore from the changelogs\n\n");
            if (restore.get("skipped") != null) {
                md.append("Skipped: ").append(restore.get("skipped")).append(".\n\n");
            } else if (restore.get("restoreSeconds") instanceof Double seconds) {
                md.append(String.format(Locale.ROOT, "The service stopped cleanly (%.1f s), its state directory "
                                + "(%s MB) deleted, and started again on the same broker and application id. From "
                                + "the process start: HTTP up after %.1f s, `/health/ready` 200 after **%.1f s**, "
                                + "`/v1/cluster` `caughtUp: true` after %.1f s, every view caught up and the sampled "
                                + "answers right after **%.1f s** (%.1f s after HTTP was up).%n%n",
                        (Double) restore.get("stopSeconds"), num(restore.get("stateDirMbBefore")),
                        (Double) restore.get("httpUpSeconds"), (Double) restore.get("readySeconds"),
                        (Double) restore.get("clusterCaughtUpSeconds"), seconds,
                        (Double) restore.get("restoreSecondsAfterHttpUp")));
                md.append("| products | restore s | products/s | s per 100 000 products (ready / right) | "
                        + "changelog offsets | offsets/s (to ready) |\n|---:|---:|---:|---:|---:|---:|\n");
                md.append(String.format(Locale.ROOT, "| %,d | %.1f | %,.0f | %.1f / %.1f | %,d | %,.0f |%n%n",
                        restore.get("products"), seconds, (Double) restore.get("productsPerSecond"),
                        (Double) restore.get("readySecondsPer100kProducts"),
                        (Double) restore.get("secondsPer100kProducts"), restore.get("changelogOffsets"),
                        (Double) restore.get("changelogOffsetsPerSecondToReady")));
                if (restore.get("verification") instanceof Map<?, ?> v) {
                    md.append(String.format(Locale.ROOT, "Then every query class for %s s at %s connections: %s right, "
                                    + "%s wrong, %s errors. Checks not right while `/v1/cluster` said caught up: %s.%n%n",
                            v.get("secondsPerClass"), v.get("concurrency"), v.get("right"), v.get("wrong"),
                            v.get("errors"), restore.get("checksNotRightWhileCaughtUp")));
                }
            }
            if (restore.get("error") != null) {
                md.append("**The restore failed:** ").append(restore.get("error")).append("\n\n");
            }
        }
        md.append("## Targets of issue 5\n\n| target | measured | met |\n|---|---:|:---:|\n");
        for (Map<String, Object> t : (List<Map<String, Object>>) results.get("targets")) {
            md.append("| ").append(t.get("target")).append(" | ").append(t.get("measured")).append(" | ")
                    .append(Boolean.TRUE.equals(t.get("met")) ? "yes" : "**no**").append(" |\n");
        }
        md.append(String.format(Locale.ROOT, "%nWrong answers in the whole run: %s; errors: %s.%n%n",
                results.get("wrongAnswers"), results.get("errors")));
        md.append("![throughput](throughput.svg)\n\n![latency](latency.svg)\n");
        return md.toString();
    }

    private static String num(Object v) {
        return v instanceof Double d ? String.format(Locale.ROOT, "%,.0f", d) : "–";
    }

    private static String pct(Object v) {
        return v instanceof Double d ? String.format(Locale.ROOT, "%.0f %%", d * 100) : "–";
    }

    private static String times(Object v) {
        return v instanceof Double d ? String.format(Locale.ROOT, "%.2f×", d) : "–";
    }
}
