package io.catalogviews.bench.report;

import io.catalogviews.bench.load.LoadResult;
import io.catalogviews.bench.results.Stats;
import io.catalogviews.bench.results.SummaryRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Plain SVG bar charts, one small panel per query class (each with its own scale), no dependencies. */
final class Charts {

    private static final String[] COLORS = {"#2f6db3", "#9aa5b1", "#d08a2c", "#b5562f"};
    private static final int PANEL_W = 300;
    private static final int PANEL_H = 190;
    private static final int COLS = 3;

    private Charts() {
    }

    record Bar(String label, double value) {
    }

    record Panel(String title, List<Bar> bars) {
    }

    static String throughput(List<SummaryRow> summary, int concurrency) {
        List<Panel> panels = new ArrayList<>();
        for (SummaryRow row : summary) {
            if (row.concurrency() != concurrency) {
                continue;
            }
            List<Bar> bars = new ArrayList<>();
            bars.add(new Bar("catalog-views", row.throughput()));
            if (row.ceiling() != null) {
                bars.add(new Bar("HTTP ceiling", row.ceiling().ceiling()));
            }
            if (row.postgresHttp() != null) {
                bars.add(new Bar("PostgreSQL+HTTP", row.postgresHttp().postgresHttp()));
            }
            if (row.postgresJdbc() != null) {
                bars.add(new Bar("PostgreSQL JDBC", row.postgresJdbc().postgresJdbc()));
            }
            panels.add(new Panel(row.queryClass() + " (req/s)", bars));
        }
        return render("Throughput per query class, " + concurrency + " concurrent clients (right answers/s)", panels);
    }

    /** p99 of each target per class: the median of its runs. */
    static String latency(List<LoadResult> runs, int concurrency) {
        List<Panel> panels = new ArrayList<>();
        List<String> classes = runs.stream().map(LoadResult::queryClass).distinct().toList();
        for (String c : classes) {
            List<Bar> bars = new ArrayList<>();
            for (String target : List.of(Report.SERVICE, Report.CEILING, Report.PG_HTTP, Report.PG_JDBC)) {
                List<LoadResult> measured = Report.runsOf(runs, target, c, concurrency);
                if (!measured.isEmpty()) {
                    String name = switch (target) {
                        case Report.SERVICE -> "catalog-views";
                        case Report.CEILING -> "HTTP ceiling";
                        case Report.PG_HTTP -> "PostgreSQL+HTTP";
                        default -> "PostgreSQL JDBC";
                    };
                    bars.add(new Bar(name + " p99", Stats.median(measured.stream().map(LoadResult::p99Ms).toList())));
                }
            }
            if (!bars.isEmpty()) {
                panels.add(new Panel(c + " (p99 ms)", bars));
            }
        }
        return render("p99 latency per query class, " + concurrency + " concurrent clients (ms)", panels);
    }

    static String render(String title, List<Panel> panels) {
        int rows = Math.max(1, (panels.size() + COLS - 1) / COLS);
        int width = COLS * PANEL_W + 20;
        int height = rows * PANEL_H + 50;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                escape(title)));
        for (int p = 0; p < panels.size(); p++) {
            Panel panel = panels.get(p);
            int x0 = 10 + (p % COLS) * PANEL_W;
            int y0 = 40 + (p / COLS) * PANEL_H;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0,
                    y0 + 12, escape(panel.title())));
            double max = panel.bars().stream().mapToDouble(Bar::value).max().orElse(1);
            max = max <= 0 ? 1 : max;
            int barArea = PANEL_W - 130;
            for (int b = 0; b < panel.bars().size(); b++) {
                Bar bar = panel.bars().get(b);
                int y = y0 + 24 + b * 36;
                int w = (int) Math.round(barArea * bar.value() / max);
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x0, y + 10,
                        escape(bar.label())));
                svg.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"14\" fill=\"%s\"/>%n", x0, y + 14, Math.max(1, w),
                        COLORS[b % COLORS.length]));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x0 + Math.max(1, w) + 4,
                        y + 25, escape(format(bar.value()))));
            }
        }
        return svg.append("</svg>\n").toString();
    }

    static String format(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
