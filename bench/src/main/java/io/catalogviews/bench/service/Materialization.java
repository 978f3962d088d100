package io.catalogviews.bench.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.bench.catalog.SyntheticCatalog;
import io.catalogviews.bench.http.HttpConnection;
import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.cli.ProgressBar;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Tells when every view has caught up with what was published: the consumer group of the application (Kafka
 * Streams commits the input and repartition offsets it has applied, inside its transactions) has no lag on any
 * partition, and then the HTTP answers agree with the model: {@code GET /v1/categories} counts equal the
 * model's (category views, after the repartition topic) and a sample of products is at its last version
 * (product view).
 */
public final class Materialization implements AutoCloseable {

    /** Lag of the group: records behind on the input topic and on the repartition topics. */
    public record Lag(long input, long repartition, long inputCommitted) {
        public long total() {
            return input + repartition;
        }
    }

    private final Admin admin;
    private final String groupId;
    private final String inputTopic;

    public Materialization(String bootstrapServers, String groupId, String inputTopic) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        this.groupId = groupId;
        this.inputTopic = inputTopic;
    }

    public Lag lag() {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            TopicDescription input = admin.describeTopics(List.of(inputTopic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(inputTopic);
            Map<TopicPartition, OffsetSpec> wanted = new HashMap<>();
            input.partitions().forEach(p -> wanted.put(new TopicPartition(inputTopic, p.partition()),
                    OffsetSpec.latest()));
            committed.keySet().forEach(tp -> wanted.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(wanted).all()
                    .get(30, TimeUnit.SECONDS);
            long inputLag = 0;
            long repartitionLag = 0;
            long inputCommitted = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e : ends.entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                long at = c == null ? 0 : c.offset();
                long lag = Math.max(0, e.getValue().offset() - at);
                if (e.getKey().topic().equals(inputTopic)) {
                    inputLag += lag;
                    inputCommitted += at;
                } else {
                    repartitionLag += lag;
                }
            }
            return new Lag(inputLag, repartitionLag, inputCommitted);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the lag of group " + groupId + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Waits until the group has no lag and the HTTP checks pass; shows progress of the input offsets against
     * {@code inputTarget}. Returns the nanoTime at which it saw every view caught up.
     */
    public long awaitCaughtUp(String serviceUrl, CatalogModel model, long inputBase, long inputTarget,
                              Duration timeout, String label) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ProgressBar bar = new ProgressBar(System.err, label, inputTarget - inputBase);
        String lastProblem = "no check yet";
        while (System.nanoTime() < deadline) {
            Lag lag = lag();
            bar.update(Math.max(0, lag.inputCommitted() - inputBase));
            if (lag.total() == 0) {
                lastProblem = httpProblem(serviceUrl, model);
                if (lastProblem == null) {
                    long at = System.nanoTime();
                    bar.finish(inputTarget - inputBase);
                    return at;
                }
            } else {
                lastProblem = "lag " + lag;
            }
            ChildJvm.sleep(100);
        }
        bar.finish(lag().inputCommitted() - inputBase);
        throw new IllegalStateException("the views did not catch up within " + timeout + ": " + lastProblem);
    }

    /**
     * Offsets held by each changelog topic of the application ({@code <application id>-*-changelog}): the sum over
     * its partitions of end offset minus start offset. What a restore from an empty state directory reads, as an
     * upper bound on records: under exactly-once it also counts one transaction marker per partition per commit,
     * and compaction may have removed records inside that range.
     */
    public Map<String, Long> changelogOffsets(String applicationId) {
        try {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(applicationId + "-") && t.endsWith("-changelog")).sorted().toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
                d.partitions().forEach(p -> {
                    latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest());
                    earliest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.earliest());
                });
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts = admin.listOffsets(earliest).all()
                    .get(30, TimeUnit.SECONDS);
            Map<String, Long> out = new java.util.TreeMap<>();
            topics.forEach(t -> out.put(t, 0L));
            ends.forEach((tp, end) -> out.merge(tp.topic(), end.offset() - starts.get(tp).offset(), Long::sum));
            return out;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the changelog offsets of " + applicationId + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The application's changelog topics at one moment: bytes of their logs on the brokers, and end offsets. */
    public record ChangelogState(Map<String, Long> bytes, Map<String, Long> endOffsets) {

        public long totalBytes() {
            return bytes.values().stream().mapToLong(Long::longValue).sum();
        }

        public long totalEndOffsets() {
            return endOffsets.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * Sizes (every broker's log directories, {@code describeLogDirs}) and end offsets of the application's changelog
     * topics ({@code <application id>-*-changelog}), by topic.
     */
    public ChangelogState changelogState(String applicationId) {
        try {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(applicationId + "-") && t.endsWith("-changelog")).sorted().toList();
            List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                    .map(org.apache.kafka.common.Node::id).toList();
            Map<String, Long> bytes = new java.util.TreeMap<>();
            topics.forEach(t -> bytes.put(t, 0L));
            admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()
                    .forEach(dirs -> dirs.values().forEach(dir -> dir.replicaInfos().forEach((tp, replica) -> {
                        if (bytes.containsKey(tp.topic())) {
                            bytes.merge(tp.topic(), replica.size(), Long::sum);
                        }
                    })));
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
                d.partitions().forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
            }
            Map<String, Long> ends = new java.util.TreeMap<>();
            topics.forEach(t -> ends.put(t, 0L));
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((tp, end) -> ends.merge(tp.topic(), end.offset(), Long::sum));
            return new ChangelogState(bytes, ends);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the changelog topics of " + applicationId + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * What {@code GET /v1/cluster} of one instance says about itself: its Kafka Streams state, whether it has
     * caught up, and the records its local store partitions are behind their changelogs (restoration progress;
     * -1 when it reports no lag yet).
     */
    public record ClusterView(int status, String state, boolean caughtUp, long storeLag) {
    }

    /** Asks {@code GET /v1/cluster}; null when the instance does not answer HTTP yet. */
    public static ClusterView cluster(String serviceUrl) {
        try (HttpConnection c = HttpConnection.to(serviceUrl, 5_000)) {
            HttpConnection.Response r = c.exchange(HttpConnection.get("/v1/cluster"), null);
            if (r.status() != 200) {
                return new ClusterView(r.status(), null, false, -1);
            }
            JsonNode node = JsonCheck.MAPPER.readTree(r.body());
            String self = node.path("self").asText();
            String state = null;
            for (JsonNode m : node.path("instances")) {
                if (m.path("url").asText().endsWith("//" + self)) {
                    state = m.path("state").asText();
                }
            }
            long lag = -1;
            for (JsonNode store : node.path("lag")) {
                for (JsonNode partition : store) {
                    lag = Math.max(0, lag) + partition.asLong();
                }
            }
            return new ClusterView(200, state, node.path("caughtUp").asBoolean(false), lag);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Null when the categories and a sample of products agree with the model, else what does not. */
    public static String httpProblem(String serviceUrl, CatalogModel model) {
        try (HttpConnection c = HttpConnection.to(serviceUrl, 30_000)) {
            HttpConnection.Response r = c.exchange(HttpConnection.get("/v1/categories"), null);
            if (r.status() != 200) {
                return "GET /v1/categories answered " + r.status();
            }
            StringBuilder expected = new StringBuilder("{\"categories\":[");
            boolean first = true;
            for (Map.Entry<String, Long> e : model.categoryCounts().entrySet()) {
                expected.append(first ? "" : ",").append("{\"category\":\"").append(e.getKey())
                        .append("\",\"count\":").append(e.getValue()).append('}');
                first = false;
            }
            expected.append("]}");
            String d = JsonCheck.difference(JsonCheck.MAPPER.readTree(expected.toString()),
                    JsonCheck.MAPPER.readTree(r.body()));
            if (d != null) {
                return "categories: " + d;
            }
            SplittableRandom random = new SplittableRandom(model.changesApplied() + 1);
            for (int k = 0; k < 50; k++) {
                int i = random.nextInt(Math.max(1, model.upserted()));
                String target = "/v1/products/" + SyntheticCatalog.productId(i) + "?minVersion=" + model.version(i);
                HttpConnection.Response p = c.exchange(HttpConnection.get(target), null);
                if (p.status() != 200) {
                    return "GET " + target + " answered " + p.status();
                }
                JsonNode node = JsonCheck.MAPPER.readTree(p.body());
                if (node.path("version").asLong() != model.version(i)) {
                    return "GET " + target + " is at version " + node.path("version");
                }
            }
            return null;
        } catch (IOException e) {
            return "HTTP check failed: " + e.getMessage();
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
