package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The load phase ({@code load}): the catalog published, then materialized by every view.
 *
 * @param materializeSeconds    from the first send until every view had caught up ({@link #NOTE})
 * @param passThroughPerSecond  the pass-through topology's rate over the same events (null: not run)
 * @param fractionOfPassThrough {@code materializedPerSecond / passThroughPerSecond} (null: not run)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadFigures(int products, long updates, long events, double publishSeconds, double publishedPerSecond,
                          double materializeSeconds, double materializedPerSecond, double drainAfterPublishSeconds,
                          String note, Double passThroughPerSecond, Double fractionOfPassThrough) {

    public static final String NOTE = "materialized = from the first send until the consumer group had no lag on the "
            + "input and repartition topics and GET /v1/categories and a sample of products agreed with the model";

    public static LoadFigures of(int products, long updates, double publishSeconds, double materializeSeconds) {
        long events = products + updates;
        return new LoadFigures(products, updates, events, publishSeconds, events / publishSeconds,
                materializeSeconds, events / materializeSeconds, materializeSeconds - publishSeconds, NOTE, null,
                null);
    }

    /** These figures beside the pass-through topology's rate. */
    public LoadFigures withPassThrough(double perSecond) {
        return new LoadFigures(products, updates, events, publishSeconds, publishedPerSecond, materializeSeconds,
                materializedPerSecond, drainAfterPublishSeconds, note, perSecond, materializedPerSecond / perSecond);
    }
}
