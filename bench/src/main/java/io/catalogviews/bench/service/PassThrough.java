package io.catalogviews.bench.service;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The yardstick for ingest (DESIGN.md, "Benchmark fairness"): a Kafka Streams topology that copies the input
 * topic to another topic under exactly_once_v2, with the service's commit interval default, on the same broker
 * and the same events. The service's materialization rate is reported as a fraction of this rate.
 */
public final class PassThrough {

    private PassThrough() {
    }

    /** Copies every record of {@code inputTopic} once; returns events per second until the group had no lag. */
    public static double run(String bootstrapServers, String inputTopic, int partitions, long events, Path stateDir)
            throws Exception {
        String appId = "catalog-views-bench-passthrough-" + System.nanoTime();
        String output = appId + ".out";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(output, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(inputTopic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        try (KafkaStreams streams = new KafkaStreams(builder.build(), p);
             Materialization lag = new Materialization(bootstrapServers, appId, inputTopic)) {
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            streams.setStateListener((now, before) -> {
                if (now == KafkaStreams.State.RUNNING) {
                    running.countDown();
                }
            });
            streams.start();
            // Timed from RUNNING: the service's figure does not include its start-up either.
            if (!running.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the pass-through topology did not reach RUNNING");
            }
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MINUTES.toNanos(30);
            while (System.nanoTime() < deadline) {
                Materialization.Lag l = lag.lag();
                if (l.inputCommitted() >= events && l.total() == 0) {
                    return events / ((System.nanoTime() - start) / 1e9);
                }
                ChildJvm.sleep(100);
            }
            streams.close(Duration.ofSeconds(10));
            throw new IllegalStateException("the pass-through topology did not finish within 30 minutes");
        }
    }
}
