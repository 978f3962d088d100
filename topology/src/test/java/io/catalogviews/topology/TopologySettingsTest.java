package io.catalogviews.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.catalogviews.views.StoreNames;
import java.time.Duration;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

class TopologySettingsTest {

    @Test
    void shouldUseTheContractDefaultsWhenBuiltFromDefaults() {
        TopologySettings settings = TopologySettings.defaults(12);

        assertThat(settings.inputTopic()).isEqualTo("catalog.product-events");
        assertThat(settings.deadLetterTopic()).isEqualTo("catalog.product-events.dlq");
        assertThat(settings.inputPartitions()).isEqualTo(12);
        assertThat(settings.deletedRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(settings.purgeInterval()).isPositive();
        assertThat(settings.outcomes()).isSameAs(EventOutcomeListener.NONE);
    }

    @Test
    void shouldChangeOnlyTheListenerWhenGivenOutcomes() {
        EventCounters counters = new EventCounters();

        TopologySettings settings = TopologySettings.defaults(3).withOutcomes(counters);

        assertThat(settings).isEqualTo(new TopologySettings("catalog.product-events", "catalog.product-events.dlq", 3,
                Duration.ofDays(7), TopologySettings.defaults(3).purgeInterval(), counters));
    }

    @Test
    void shouldChangeOnlyRetentionAndPurgeIntervalWhenGivenADeletedRetention() {
        TopologySettings settings = TopologySettings.defaults(3)
                .withDeletedRetention(Duration.ofHours(1), Duration.ofSeconds(5));

        assertThat(settings.deletedRetention()).isEqualTo(Duration.ofHours(1));
        assertThat(settings.purgeInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.inputPartitions()).isEqualTo(3);
    }

    @Test
    void shouldRejectSettingsWhenThePartitionCountIsBelowOne() {
        assertThatThrownBy(() -> TopologySettings.defaults(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inputPartitions");
    }

    @Test
    void shouldRejectSettingsWhenRetentionOrPurgeIntervalIsNotPositive() {
        TopologySettings defaults = TopologySettings.defaults(1);

        assertThatThrownBy(() -> defaults.withDeletedRetention(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withDeletedRetention(Duration.ofDays(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectSettingsWhenTheListenerIsMissing() {
        assertThatThrownBy(() -> TopologySettings.defaults(1).withOutcomes(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldApplyEveryEventInOneSubtopologyWhenBuildingTheTopology() {
        TopologyDescription description = CatalogTopology.build(TopologySettings.defaults(12)).describe();

        // One stage: no repartition topic, no category task; the product task keeps every listing.
        assertThat(description.subtopologies()).hasSize(1);
        java.util.List<TopologyDescription.Node> nodes = description.subtopologies().stream()
                .flatMap(s -> s.nodes().stream()).toList();
        assertThat(nodes).filteredOn(n -> n instanceof TopologyDescription.Source)
                .extracting(n -> ((TopologyDescription.Source) n).topicSet().iterator().next())
                .containsExactly("catalog.product-events");
        assertThat(nodes).filteredOn(n -> n instanceof TopologyDescription.Processor)
                .flatExtracting(n -> ((TopologyDescription.Processor) n).stores())
                .containsExactlyInAnyOrder(StoreNames.PRODUCTS, StoreNames.PRODUCT_DELETIONS);
        assertThat(nodes).filteredOn(n -> n instanceof TopologyDescription.Sink)
                .extracting(n -> ((TopologyDescription.Sink) n).topic())
                .containsExactly("catalog.product-events.dlq");
    }

    @Test
    void shouldReadAndWriteTheConfiguredTopicsWhenTheyAreNotTheDefaults() {
        TopologySettings settings = new TopologySettings("events", "events.dlq", 1, Duration.ofDays(1),
                Duration.ofMinutes(1), EventOutcomeListener.NONE);

        String description = CatalogTopology.build(settings).describe().toString();

        assertThat(description).contains("topics: [events]").contains("topic: events.dlq");
    }
}
