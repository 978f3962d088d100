package io.catalogviews.bench.results;

/**
 * PostgreSQL fed the same events as batched upserts ({@code postgresIngest}).
 *
 * @param ratioCatalogViewsToPostgres the service's materialization rate over PostgreSQL's ingest rate
 */
public record PostgresIngest(long events, double seconds, double eventsPerSecond, int batch,
                             double ratioCatalogViewsToPostgres) {

    public static PostgresIngest of(long events, double seconds, int batch, double catalogViewsPerSecond) {
        double perSecond = events / seconds;
        return new PostgresIngest(events, seconds, perSecond, batch, catalogViewsPerSecond / perSecond);
    }
}
