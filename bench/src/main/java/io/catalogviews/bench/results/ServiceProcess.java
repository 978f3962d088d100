package io.catalogviews.bench.results;

import java.util.List;

/**
 * The service under test ({@code service}).
 *
 * @param pid -1 for a deployment given with {@code --url}
 */
public record ServiceProcess(String url, long pid, List<String> jvmOptions, long rocksDbMemoryMb) {
}
