package io.catalogviews.topology;

import io.catalogviews.views.routing.Instance;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StreamsSettingsTest {

    private static final String STREAMS_PRODUCER_COMPRESSION =
            StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG);

    private static StreamsSettings settings(Map<String, String> overrides) {
        return new StreamsSettings("catalog-views", "localhost:9092", new Instance("localhost", 8080),
                Path.of("state"), 0, 1, 64L * 1024 * 1024, overrides);
    }

    @Test
    void shouldCompressWhatTheStreamsProducerSendsWhenNothingOverridesIt() {
        StreamsConfig config = new StreamsConfig(settings(Map.of()).toProperties());

        assertThat(config.getProducerConfigs("client").get(ProducerConfig.COMPRESSION_TYPE_CONFIG))
                .isEqualTo("lz4");
    }

    @Test
    void shouldKeepTheOperatorsCompressionWhenOverridden() {
        StreamsConfig config = new StreamsConfig(settings(Map.of(STREAMS_PRODUCER_COMPRESSION, "zstd")).toProperties());

        assertThat(config.getProducerConfigs("client").get(ProducerConfig.COMPRESSION_TYPE_CONFIG))
                .isEqualTo("zstd");
    }

    @Test
    void shouldGiveInternalTopicsSmallSegmentsWhenNothingOverridesThem() {
        StreamsConfig config = new StreamsConfig(settings(Map.of()).toProperties());

        assertThat(config.originalsWithPrefix(StreamsConfig.TOPIC_PREFIX).get(TopicConfig.SEGMENT_BYTES_CONFIG))
                .isEqualTo(Integer.toString(StreamsSettings.INTERNAL_TOPIC_SEGMENT_BYTES));
    }

    @Test
    void shouldKeepTheOperatorsSegmentSizeWhenOverridden() {
        StreamsConfig config = new StreamsConfig(settings(Map.of(
                StreamsConfig.topicPrefix(TopicConfig.SEGMENT_BYTES_CONFIG), "67108864")).toProperties());

        assertThat(config.originalsWithPrefix(StreamsConfig.TOPIC_PREFIX).get(TopicConfig.SEGMENT_BYTES_CONFIG))
                .isEqualTo("67108864");
    }
}
