package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * Memory at the end of the measured phases ({@code memory}).
 *
 * @param postgresSharedBuffersMb 0 without the PostgreSQL peer
 * @param serviceRssMb            resident memory of the service, null for a deployment given with {@code --url}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryFigures(long rocksDbBoundMb, long postgresSharedBuffersMb, Double serviceRssMb,
                            List<String> serviceJvmOptions) {
}
