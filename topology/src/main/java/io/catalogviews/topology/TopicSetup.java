package io.catalogviews.topology;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates the input and dead-letter topics when missing (contract: {@code cleanup.policy=delete}, since
 * compaction would drop an upsert hidden under a later patch) and reports the input's real partition count.
 */
public final class TopicSetup {

    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private TopicSetup() {
    }

    /**
     * @return the partition count of the input topic, as it exists now (it may predate this instance and
     *         differ from {@code partitions}; the existing topic wins)
     */
    public static int ensureTopics(Admin admin, String inputTopic, String deadLetterTopic, int partitions,
                                   Duration inputRetention) {
        Map<String, String> config = Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(inputRetention.toMillis()));
        create(admin, new NewTopic(inputTopic, Optional.of(partitions), Optional.empty()).configs(config));
        create(admin, new NewTopic(deadLetterTopic, Optional.of(partitions), Optional.empty()).configs(config));
        try {
            TopicDescription description = admin.describeTopics(List.of(inputTopic)).allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(inputTopic);
            int actual = description.partitions().size();
            if (actual != partitions) {
                LOG.warn("Topic {} exists with {} partitions, not the configured {}; using {}", inputTopic, actual,
                        partitions, actual);
            }
            return actual;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topic " + inputTopic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe topic " + inputTopic + ": " + e.getMessage(), e);
        }
    }

    private static void create(Admin admin, NewTopic topic) {
        try {
            admin.createTopics(List.of(topic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Created topic {} with {} partitions", topic.name(), topic.numPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic.name() + ": "
                        + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + topic.name(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + TIMEOUT.toSeconds()
                    + " s while creating topic " + topic.name() + "; is bootstrap.servers right?", e);
        }
    }
}
