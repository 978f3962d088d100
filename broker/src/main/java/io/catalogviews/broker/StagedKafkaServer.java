package io.catalogviews.broker;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import kafka.server.BrokerServer;
import kafka.server.ControllerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.server.Server;
import kafka.server.SharedServer;
import kafka.server.StandardFaultHandlerFactory;

import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.raft.QuorumConfig;
import org.apache.kafka.server.ServerSocketFactory;
import org.apache.kafka.server.logger.Log4jControllerRegistration;
import org.slf4j.LoggerFactory;

import scala.Tuple2;

/**
 * A combined (broker and controller) KRaft node built from the same parts as Kafka's {@code KafkaRaftServer},
 * but started in two stages: the controller first, and the broker only once the controller's metadata no
 * longer shows an unfenced earlier incarnation of this node's broker.
 *
 * <p>Why: after an unclean stop (kill -9, crash, power loss) the metadata log still says "broker 1 is
 * registered, unfenced, and leads every partition", because nothing could record its end. Started in one go,
 * the new broker publishes that stale image before the controller has fenced the old incarnation (Kafka
 * refuses the new registration with DUPLICATE_BROKER_REGISTRATION until the old session expires), so for a
 * few seconds it acts as leader at the old leader epochs: its transaction coordinator loads
 * {@code __transaction_state} and queues the commit markers of any transaction left in PrepareCommit.
 * They cannot be delivered yet (the broker's listener opens only once it is unfenced). When the controller
 * then fences the old incarnation, every partition is leaderless for a moment, and Kafka 4.4's
 * {@code KRaftMetadataCache.getPartitionLeaderEndpoint} answers "no such partition" for a leaderless one
 * (KAFKA-20734, apache/kafka#22680, a regression of the Java port in KAFKA-17573). The marker sender then
 * drops the markers as if the topic had been deleted and appends CompleteCommit; when that append lands
 * before {@code __transaction_state} turns follower (a race: 6 of 14 kill-and-restart cycles here), the
 * coordinator reloads CompleteCommit at the next epoch and never writes the markers. The partitions keep an
 * open transaction for good: read_committed readers stop at its first offset, for every later record too.
 * Seen with {@code describeTransactions} = CompleteCommit while {@code describeProducers} still showed the
 * producer's open transaction at offset 0, and the log line "Couldn't find leader endpoint for partitions
 * ... these partitions are likely deleted already and hence can be skipped".
 *
 * <p>With the controller alone first, it fences the old incarnation after {@code broker.session.timeout.ms}
 * (it would anyway, during the broker's start-up); the broker then starts from an image where it leads
 * nothing, registers at once (no duplicate-registration wait), and its coordinator loads only after it is
 * unfenced and leads again at a new epoch, where the markers reach the partitions. A clean restart finds the
 * old incarnation fenced (controlled shutdown) and does not wait.
 *
 * <p>The construction mirrors {@code KafkaRaftServer(KafkaConfig, Time)} of Kafka 4.4.0 for
 * {@code process.roles=broker,controller}; recheck it on a Kafka upgrade (and whether KAFKA-20734 is fixed).
 */
final class StagedKafkaServer {

    private final int nodeId;
    private final Metrics metrics;
    private final SharedServer shared;
    private final ControllerServer controller;
    private final BrokerServer broker;

    StagedKafkaServer(KafkaConfig config, int nodeId) {
        this.nodeId = nodeId;
        Log4jControllerRegistration.register();
        String logPrefix = "[StagedKafkaServer nodeId=" + nodeId + "] ";
        Tuple2<MetaPropertiesEnsemble, BootstrapMetadata> dirs =
                KafkaRaftServer.initializeLogDirs(config, LoggerFactory.getLogger(KafkaRaftServer.class), logPrefix);
        MetaPropertiesEnsemble ensemble = dirs._1();
        this.metrics = Server.initializeMetrics(config, Time.SYSTEM, ensemble.clusterId().orElseThrow());
        this.shared = new SharedServer(config, ensemble, Time.SYSTEM, metrics,
                CompletableFuture.completedFuture(QuorumConfig.parseVoterConnections(config.quorumConfig().voters())),
                QuorumConfig.parseBootstrapServers(config.quorumConfig().bootstrapServers()),
                new StandardFaultHandlerFactory(), ServerSocketFactory.INSTANCE);
        this.broker = new BrokerServer(shared);
        this.controller = new ControllerServer(shared, KafkaRaftServer.configSchema(), dirs._2());
    }

    /**
     * Starts the controller, waits until it no longer lists an unfenced incarnation of this node's broker,
     * then starts the broker (which returns once it is unfenced).
     *
     * @return how long the broker's start waited for the old incarnation to be fenced
     * @throws TimeoutException when the controller did not fence it before {@code deadlineNanos}
     */
    Duration startup(long deadlineNanos) throws InterruptedException, TimeoutException {
        controller.startup();
        long t0 = System.nanoTime();
        PreviousIncarnationWatch watch = new PreviousIncarnationWatch(nodeId);
        try {
            shared.loader().installPublishers(List.of(watch)).get(remainingMillis(deadlineNanos), TimeUnit.MILLISECONDS);
            watch.fencedOrAbsent().get(remainingMillis(deadlineNanos), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("watching the metadata for broker " + nodeId + " failed: " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            TimeoutException timeout = new TimeoutException("the controller did not fence the previous incarnation of "
                    + "broker " + nodeId + " (" + watch.lastSeen() + ") in time");
            timeout.initCause(e);
            throw timeout;
        } finally {
            shared.loader().removeAndClosePublisher(watch);
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - t0);
        broker.startup();
        AppInfoParser.registerAppInfo(Server.MetricsPrefix(), Integer.toString(nodeId), metrics,
                Time.SYSTEM.milliseconds());
        return waited;
    }

    /** Controlled shutdown of the broker (a no-op when it never started), then the controller. */
    void shutdown() {
        try {
            broker.shutdown();
        } finally {
            controller.shutdown();
            AppInfoParser.unregisterAppInfo(Server.MetricsPrefix(), Integer.toString(nodeId), metrics);
        }
    }

    void awaitShutdown() {
        broker.awaitShutdown();
        controller.awaitShutdown();
    }

    private static long remainingMillis(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
