package io.catalogviews.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Small blocking Kafka client helpers for the broker tests. */
final class KafkaTestClients {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private KafkaTestClients() {
    }

    static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis()));
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static Set<String> topicNames(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            return admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static KafkaProducer<String, String> transactionalProducer(String bootstrap, String transactionalId) {
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis()),
                new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        return producer;
    }

    /** One transaction holding {@code values} (key = value), committed or aborted. */
    static void sendInTransaction(KafkaProducer<String, String> producer, String topic, List<String> values,
                                  boolean commit) throws ExecutionException, InterruptedException {
        producer.beginTransaction();
        for (String v : values) {
            producer.send(new ProducerRecord<>(topic, v, v)).get();
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }

    /**
     * Reads the topic with {@code isolation.level=read_committed} from the beginning up to the last stable
     * offset of every partition (so aborted records would have shown up by then) and returns the values.
     * With a {@code groupId} it joins that group and commits its offsets; without, it assigns the partitions.
     */
    static List<String> readCommittedValues(String bootstrap, String topic, String groupId) {
        Map<String, Object> props = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        if (groupId != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .collect(Collectors.toList());
            if (groupId == null) {
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
            } else {
                consumer.subscribe(List.of(topic));
            }
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            List<String> values = new ArrayList<>();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("did not reach the end offsets " + end + " of " + topic
                            + " within " + TIMEOUT + "; read so far: " + values);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            if (groupId != null) {
                consumer.commitSync(TIMEOUT);
            }
            return values;
        }
    }

    private static boolean caughtUp(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> end) {
        if (!consumer.assignment().containsAll(end.keySet())) {
            return false;
        }
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), TIMEOUT) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
