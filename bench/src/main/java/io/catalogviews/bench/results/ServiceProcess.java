package io.catalogviews.bench.results;

import java.util.List;
import java.util.Map;

/**
 * The service under test ({@code service}).
 *
 * @param pid         -1 for a deployment given with {@code --url}
 * @param environment the variables the harness set (an empty value: removed) in the service's environment; empty
 *                    for a deployment given with {@code --url}
 */
public record ServiceProcess(String url, long pid, List<String> jvmOptions, Map<String, String> environment,
                             long rocksDbMemoryMb) {
}
