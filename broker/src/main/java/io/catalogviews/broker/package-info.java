/**
 * A real single-node Kafka broker (KRaft, broker and controller in one node) for {@code serve} without
 * {@code --bootstrap-servers}, and for tests.
 *
 * <ul>
 *   <li>{@link io.catalogviews.broker.EmbeddedKafkaBroker}: in this JVM; storage under a data directory,
 *       formatted once and reused (cluster id, topics and records survive a restart).</li>
 *   <li>{@link io.catalogviews.broker.ChildProcessKafkaBroker}: the same broker in a child JVM that can be
 *       killed ({@code SIGKILL}) and restarted on the same ports and data directory.</li>
 * </ul>
 *
 * <p>Logging: the broker logs through slf4j. Kafka's {@code log4j-core} is excluded and log4j-api is routed
 * to slf4j ({@code log4j-to-slf4j}). The application should set the loggers {@code kafka},
 * {@code state.change.logger} and {@code org.apache.kafka} (or its broker packages) to WARN.
 */
package io.catalogviews.broker;
