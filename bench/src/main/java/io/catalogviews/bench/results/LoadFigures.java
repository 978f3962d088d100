package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The load phase ({@code load}): the catalog published, then materialized by every view.
 *
 * @param materializeSeconds    from the first send until every view had caught up ({@link #NOTE}); since the new
 *                              products and the changes are timed apart, the sum of their parts' times
 * @param passThroughPerSecond  the pass-through topology's rate over the same events (null: not run)
 * @param fractionOfPassThrough {@code materializedPerSecond / passThroughPerSecond} (null: not run)
 * @param newProducts           the products' upserts alone, in {@code --runs} parts (null in runs before 2026-12-02)
 * @param changes               the price/stock changes of {@code --updates} alone (null when there are none)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadFigures(int products, long updates, long events, double publishSeconds, double publishedPerSecond,
                          double materializeSeconds, double materializedPerSecond, double drainAfterPublishSeconds,
                          String note, Double passThroughPerSecond, Double fractionOfPassThrough,
                          MaterializedRuns newProducts, MaterializedRuns changes) {

    public static final String NOTE = "materialized = from the first send until the consumer group had no lag on the "
            + "input and repartition topics and GET /v1/categories and a sample of products agreed with the model";

    public static LoadFigures of(int products, long updates, double publishSeconds, double materializeSeconds) {
        long events = products + updates;
        return new LoadFigures(products, updates, events, publishSeconds, events / publishSeconds,
                materializeSeconds, events / materializeSeconds, materializeSeconds - publishSeconds, NOTE, null,
                null, null, null);
    }

    /** The load of {@code newProducts} then {@code changes} (null when none), each timed in parts. */
    public static LoadFigures of(MaterializedRuns newProducts, MaterializedRuns changes) {
        long updates = changes == null ? 0 : changes.events();
        double publish = newProducts.publishSeconds() + (changes == null ? 0 : changes.publishSeconds());
        double materialize = newProducts.seconds() + (changes == null ? 0 : changes.seconds());
        LoadFigures total = of((int) newProducts.events(), updates, publish, materialize);
        return new LoadFigures(total.products, total.updates, total.events, total.publishSeconds,
                total.publishedPerSecond, total.materializeSeconds, total.materializedPerSecond,
                total.drainAfterPublishSeconds, total.note, null, null, newProducts, changes);
    }

    /** These figures beside the pass-through topology's rate. */
    public LoadFigures withPassThrough(double perSecond) {
        return new LoadFigures(products, updates, events, publishSeconds, publishedPerSecond, materializeSeconds,
                materializedPerSecond, drainAfterPublishSeconds, note, perSecond, materializedPerSecond / perSecond,
                newProducts, changes);
    }
}
