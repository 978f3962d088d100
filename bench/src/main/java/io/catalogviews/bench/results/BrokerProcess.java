package io.catalogviews.bench.results;

/** The Kafka broker the harness started ({@code broker}); absent with {@code --bootstrap-servers}. */
public record BrokerProcess(String bootstrapServers, long pid) {
}
