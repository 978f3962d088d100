package io.catalogviews.service.config;

import io.catalogviews.api.security.AdminToken;

import java.util.Objects;

/**
 * How one instance fits its operator's environment, next to {@link io.catalogviews.service.ServiceConfig}:
 * the Kafka client properties every client gets ({@code --kafka-config}), the admin token of the operator
 * routes ({@code --admin-token}) and the request log ({@code --request-log}).
 *
 * @param kafkaClient  Kafka client properties (security, TLS, SASL …) for every client
 * @param adminToken   bearer token required on {@code /metrics} and {@code /v1/cluster}, or none
 * @param requestLog   whether to log one line per HTTP request
 */
public record OperationsConfig(KafkaClientConfig kafkaClient, AdminToken adminToken, boolean requestLog) {

    public OperationsConfig {
        Objects.requireNonNull(kafkaClient, "kafkaClient");
        Objects.requireNonNull(adminToken, "adminToken");
    }

    /** No Kafka client properties, no token, no request log. */
    public static OperationsConfig defaults() {
        return new OperationsConfig(KafkaClientConfig.none(), AdminToken.none(), false);
    }

    public OperationsConfig withKafkaClient(KafkaClientConfig config) {
        return new OperationsConfig(config, adminToken, requestLog);
    }

    public OperationsConfig withAdminToken(AdminToken token) {
        return new OperationsConfig(kafkaClient, token, requestLog);
    }

    public OperationsConfig withRequestLog(boolean enabled) {
        return new OperationsConfig(kafkaClient, adminToken, enabled);
    }

    /**
     * @throws IllegalArgumentException naming {@value KafkaClientConfig#OPTION} when Kafka client properties are
     *                                  given without {@code --bootstrap-servers}: the embedded broker speaks
     *                                  PLAINTEXT only
     */
    public void requireUsableWith(String bootstrapServers) {
        if ((bootstrapServers == null || bootstrapServers.isBlank()) && !kafkaClient.isEmpty()) {
            throw new IllegalArgumentException(KafkaClientConfig.OPTION + " needs --bootstrap-servers: the "
                    + "embedded broker (started without --bootstrap-servers) speaks PLAINTEXT only");
        }
    }
}
