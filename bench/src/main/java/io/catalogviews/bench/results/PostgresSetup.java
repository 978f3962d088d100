package io.catalogviews.bench.results;

import java.util.List;

/** The PostgreSQL peer ({@code postgres}): where it ran, its HTTP front's pool, its schema. */
public record PostgresSetup(String jdbcUrl, int httpPool, List<String> schema) {
}
