package io.catalogviews.bench.results;

import java.util.List;

/**
 * The read mix that ran during a freshness run: an open loop at {@code askedRate} requests per second, the classes
 * in weighted turns ({@code classes}: each with its share of a round, {@code get-by-id ×8}), latency from the moment each request was due (so a queue in the client counts). Answers are judged by
 * status only (the data changes under them); {@code wrong} counts statuses other than 200 below 500, {@code errors}
 * 5xx and I/O failures, {@code dropped} requests the client could not even queue (the service fell behind).
 */
public record ReadLoadFigures(double askedRate, double achievedRate, double seconds, long sent, long ok,
                              long wrong, long errors, long dropped, double p50Ms, double p99Ms, double maxMs,
                              List<String> classes, String note) {

    public static final String NOTE = "open loop, classes in weighted turns, answers judged by status (the data "
            + "changes meanwhile), latency from the moment each request was due";

    /** Several runs as one figure: counts summed, rates and latencies the median of the runs'. */
    public static ReadLoadFigures over(List<ReadLoadFigures> runs) {
        ReadLoadFigures first = runs.get(0);
        return new ReadLoadFigures(first.askedRate(),
                Stats.median(runs.stream().map(ReadLoadFigures::achievedRate).toList()),
                runs.stream().mapToDouble(ReadLoadFigures::seconds).sum(),
                runs.stream().mapToLong(ReadLoadFigures::sent).sum(), runs.stream().mapToLong(ReadLoadFigures::ok).sum(),
                runs.stream().mapToLong(ReadLoadFigures::wrong).sum(),
                runs.stream().mapToLong(ReadLoadFigures::errors).sum(),
                runs.stream().mapToLong(ReadLoadFigures::dropped).sum(),
                Stats.median(runs.stream().map(ReadLoadFigures::p50Ms).toList()),
                Stats.median(runs.stream().map(ReadLoadFigures::p99Ms).toList()),
                Stats.max(runs.stream().map(ReadLoadFigures::maxMs).toList()), first.classes(), first.note());
    }
}
