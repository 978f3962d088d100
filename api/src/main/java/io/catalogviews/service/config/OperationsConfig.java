package io.catalogviews.service.config;

import io.catalogviews.api.security.AdminToken;

import java.util.Objects;

/**
 * How one instance fits its operator's environment, next to {@link io.catalogviews.service.ServiceConfig}:
 * the Kafka client properties every client gets ({@code --kafka-config}), the admin token of the operator
 * routes ({@code --admin-token}), the request log ({@code --request-log}) and the deployment's secrets
 * ({@code --cluster-secret}, {@code --cursor-secret} and their previous values).
 *
 * @param kafkaClient  Kafka client properties (security, TLS, SASL …) for every client
 * @param adminToken   bearer token required on {@code /metrics} and {@code /v1/cluster}, or none
 * @param requestLog   whether to log one line per HTTP request
 * @param secrets      the cluster and cursor secrets
 */
public record OperationsConfig(KafkaClientConfig kafkaClient, AdminToken adminToken, boolean requestLog,
                               SecretsConfig secrets) {

    public OperationsConfig {
        Objects.requireNonNull(kafkaClient, "kafkaClient");
        Objects.requireNonNull(adminToken, "adminToken");
        Objects.requireNonNull(secrets, "secrets");
    }

    /** Without configured secrets ({@link SecretsConfig#none()}). */
    public OperationsConfig(KafkaClientConfig kafkaClient, AdminToken adminToken, boolean requestLog) {
        this(kafkaClient, adminToken, requestLog, SecretsConfig.none());
    }

    /** No Kafka client properties, no token, no request log, no configured secrets. */
    public static OperationsConfig defaults() {
        return new OperationsConfig(KafkaClientConfig.none(), AdminToken.none(), false, SecretsConfig.none());
    }

    public OperationsConfig withKafkaClient(KafkaClientConfig config) {
        return new OperationsConfig(config, adminToken, requestLog, secrets);
    }

    public OperationsConfig withAdminToken(AdminToken token) {
        return new OperationsConfig(kafkaClient, token, requestLog, secrets);
    }

    public OperationsConfig withRequestLog(boolean enabled) {
        return new OperationsConfig(kafkaClient, adminToken, enabled, secrets);
    }

    public OperationsConfig withSecrets(SecretsConfig config) {
        return new OperationsConfig(kafkaClient, adminToken, requestLog, config);
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
