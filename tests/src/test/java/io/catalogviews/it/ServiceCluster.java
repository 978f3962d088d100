package io.catalogviews.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.model.HistoryEvent;
import io.catalogviews.views.StoreNames;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import static org.awaitility.Awaitility.await;

/**
 * The set-up of every system test that runs several instances: the test JVM's broker ({@link TestKafka}), one
 * deployment (its own application id and input topic) of instances of the executable jar, each its own JVM
 * ({@link ServiceProcess}) with its own HTTP port and state dir under {@code target/it-state/<application id>},
 * started at once and returned ready; publishing to the deployment's input topic; scale-out; and a stop of every
 * instance at once.
 */
public final class ServiceCluster implements AutoCloseable {

    /** How long an instance may take to be ready: a JVM, a Streams group join and a first restoration. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final String applicationId;
    private final int partitions;
    private final int standbyReplicas;
    private final Path stateRoot;
    private final List<String> extraArgs;
    private final List<ServiceProcess> instances = new CopyOnWriteArrayList<>();

    private ServiceCluster(String applicationId, int partitions, int standbyReplicas, List<String> extraArgs) {
        this.applicationId = applicationId;
        this.partitions = partitions;
        this.standbyReplicas = standbyReplicas;
        this.extraArgs = List.copyOf(extraArgs);
        this.stateRoot = Path.of("target", "it-state", applicationId);
    }

    /**
     * Starts {@code count} instances at once and returns when every one is ready; on failure, stops those started.
     *
     * @param name the start of the application id (a random suffix keeps test runs apart)
     */
    public static ServiceCluster start(String name, int count, int partitions, int standbyReplicas) {
        return start(name, count, partitions, standbyReplicas, List.of());
    }

    /**
     * As {@link #start(String, int, int, int)}, every instance (also those added later) with {@code extraArgs}, more
     * {@code serve} flags such as {@code --cluster-secret}.
     */
    public static ServiceCluster start(String name, int count, int partitions, int standbyReplicas,
                                       List<String> extraArgs) {
        ServiceCluster cluster = new ServiceCluster(name + "-" + UUID.randomUUID().toString().substring(0, 8),
                partitions, standbyReplicas, extraArgs);
        try {
            for (int i = 0; i < count; i++) {
                cluster.launch();
            }
            cluster.instances.forEach(instance -> instance.awaitReady(READY_TIMEOUT));
        } catch (RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * Waits until, seen from every instance, each instance owns active partitions of the product view (so that data
     * loaded next is spread over all of them).
     */
    public ServiceCluster awaitEveryInstanceOwningProducts() {
        int count = instances.size();
        await().alias("every instance sees " + count + " instances owning product partitions")
                .atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> instances.stream().allMatch(i -> instancesOwningProducts(i) == count));
        return this;
    }

    /** Starts one more instance of the deployment (scale-out), with the next state dir, and returns it ready. */
    public ServiceProcess addInstance() {
        return launch().awaitReady(READY_TIMEOUT);
    }

    private ServiceProcess launch() {
        ServiceProcess instance = ServiceProcess.start(TestKafka.bootstrapServers(), applicationId,
                stateRoot.resolve(Character.toString('a' + instances.size())), partitions, standbyReplicas,
                ServiceProcess.freePort(), extraArgs);
        instances.add(instance);
        return instance;
    }

    /**
     * Instances that hold at least one active partition of the product view, per {@code instance}'s
     * {@code GET /v1/cluster}.
     */
    public static long instancesOwningProducts(ServiceProcess instance) {
        HttpTestClient.Answer cluster = instance.http().get("/v1/cluster");
        long owning = 0;
        for (JsonNode member : cluster.json().get("instances")) {
            JsonNode active = member.path("active").path(StoreNames.PRODUCTS);
            if (active.isArray() && !active.isEmpty()) {
                owning++;
            }
        }
        return owning;
    }

    /** A producer for the deployment's input topic that waits for each record (close it). */
    public TestProducer producer() {
        return new TestProducer(inputTopic());
    }

    /**
     * Publishes a history in order (each event in its own encoding, tombstones as null values). Sends are pipelined
     * through one idempotent producer, which keeps each partition's order.
     */
    public void publish(List<HistoryEvent> history) {
        ProductEventCodec codec = ProductEventCodec.create();
        List<Future<RecordMetadata>> sent = new ArrayList<>(history.size());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (HistoryEvent e : history) {
                ProductEvent avro = e.toAvro();
                byte[] value = avro == null ? null : e.json()
                        ? codec.encodeJson(avro).getBytes(StandardCharsets.UTF_8) : codec.encodeSingleObject(avro);
                sent.add(producer.send(new ProducerRecord<>(inputTopic(),
                        e.productId().getBytes(StandardCharsets.UTF_8), value)));
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("publishing the history to " + inputTopic() + " failed", e.getCause());
        }
    }

    /** The instances, in the order started. */
    public List<ServiceProcess> instances() {
        return List.copyOf(instances);
    }

    public ServiceProcess instance(int index) {
        return instances.get(index);
    }

    public String applicationId() {
        return applicationId;
    }

    public String inputTopic() {
        return ServiceProcess.inputTopic(applicationId);
    }

    public int partitions() {
        return partitions;
    }

    /**
     * Stops every instance cleanly (SIGTERM), all at once, so that they do not rebalance onto each other. Instances
     * stopped or killed already are passed over.
     */
    @Override
    public void close() {
        CompletableFuture.allOf(instances.stream()
                .map(instance -> CompletableFuture.runAsync(instance::close))
                .toArray(CompletableFuture[]::new)).join();
    }
}
