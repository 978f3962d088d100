package io.catalogviews.service.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaClientConfigTest {

    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        Path f = dir.resolve("kafka.properties");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void shouldReadSecurityPropertiesWhenTheFileIsAJavaPropertiesFile() throws IOException {
        KafkaClientConfig config = KafkaClientConfig.load(file("""
                security.protocol=SASL_SSL
                sasl.mechanism=SCRAM-SHA-512
                sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\
                    username="svc" password="pw";
                ssl.truststore.location=/etc/kafka/truststore.p12
                """));

        assertThat(config.properties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule "
                        + "required username=\"svc\" password=\"pw\";");
        assertThat(config.toString()).doesNotContain("pw");
    }

    @Test
    void shouldGiveEveryClientKindThePropertiesWhenConfigsAreBuilt() {
        KafkaClientConfig config = KafkaClientConfig.of(Map.of("security.protocol", "SSL", "linger.ms", "5"));

        assertThat(config.forAdmin("k:9092")).containsEntry("security.protocol", "SSL")
                .containsEntry("bootstrap.servers", "k:9092");
        assertThat(config.forProducer("k:9092", Map.of("linger.ms", 20, "acks", "all")))
                .containsEntry("security.protocol", "SSL").containsEntry("linger.ms", "5")
                .containsEntry("acks", "all").containsEntry("bootstrap.servers", "k:9092");
        assertThat(config.forStreams(Map.of("security.protocol", "SASL_SSL")))
                .containsEntry("security.protocol", "SASL_SSL").containsEntry("linger.ms", "5");
    }

    @Test
    void shouldRefuseNamingTheOptionAndPropertyWhenTheFileSetsBootstrapServers() throws IOException {
        Path f = file("bootstrap.servers=elsewhere:9092\n");

        assertThatThrownBy(() -> KafkaClientConfig.load(f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--kafka-config").hasMessageContaining("bootstrap.servers")
                .hasMessageContaining("--bootstrap-servers");
    }

    @Test
    void shouldRefuseNamingTheOptionWhenTheFileIsMissing() {
        assertThatThrownBy(() -> KafkaClientConfig.load(dir.resolve("absent.properties")))
                .hasMessageStartingWith("--kafka-config: cannot read");
    }

    @Test
    void shouldRefuseKafkaPropertiesWhenTheEmbeddedBrokerIsUsed() {
        OperationsConfig operations = OperationsConfig.defaults()
                .withKafkaClient(KafkaClientConfig.of(Map.of("security.protocol", "SSL")));

        assertThatThrownBy(() -> operations.requireUsableWith(null))
                .hasMessageContaining("--kafka-config needs --bootstrap-servers");
    }
}
